use std::collections::HashMap;

use super::{Named, Store};
use crate::models::Order;

/// Orders in memory.
#[derive(Default)]
pub struct MemoryStore {
    orders: HashMap<u32, Order>,
}

impl MemoryStore {
    pub fn new() -> Self {
        MemoryStore { orders: HashMap::new() }
    }

    pub fn count(&self) -> usize {
        self.orders.len()
    }

    pub fn total_of(&self, id: u32) -> u64 {
        match self.orders.get(&id) {
            Some(order) => order.total(),
            None => 0,
        }
    }

    pub fn first_total(&self) -> u64 {
        self.orders.get(&1).unwrap().total()
    }
}

impl Named for MemoryStore {
    fn name(&self) -> String {
        String::from("memory")
    }
}

impl Store for MemoryStore {
    fn get(&self, id: u32) -> Option<&Order> {
        self.orders.get(&id)
    }

    fn put(&mut self, order: Order) {
        self.orders.insert(order.id, order);
    }
}
