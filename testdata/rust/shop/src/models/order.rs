use std::fmt;

use super::item::Item;
use crate::log_event;

/// Where an order stands.
#[derive(Debug, Clone, Copy)]
pub enum Status {
    Open,
    Paid(u64),
    Cancelled { refunded: bool },
}

impl Status {
    pub fn label(&self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Paid(_) => "paid",
            Status::Cancelled { .. } => "cancelled",
        }
    }
}

/// An order: items and a status.
pub struct Order {
    pub id: u32,
    pub items: Vec<Item>,
    pub status: Status,
}

impl Order {
    pub fn new(id: u32) -> Self {
        Order { id, items: Vec::new(), status: Status::Open }
    }

    pub fn add(&mut self, item: Item) {
        self.items.push(item);
    }

    /// Sums the prices of the items.
    pub fn total(&self) -> u64 {
        let mut sum = 0;
        for item in &self.items {
            sum += item.price();
        }
        sum
    }

    pub fn pay(&mut self) -> Status {
        let total = self.total();
        self.status = Status::Paid(total);
        log_event!("paid {} for {}", total, self.status.label());
        self.status
    }

    pub fn cheapest(&self) -> Option<&Item> {
        self.items.iter().min_by_key(|i| i.price())
    }

    pub fn cheapest_price(&self) -> u64 {
        match self.cheapest() {
            Some(item) => item.price(),
            None => 0,
        }
    }

    pub fn first_name(&self) -> String {
        if let Some(first) = self.items.first() {
            return first.name.clone();
        }
        String::new()
    }

    pub fn cancel(&mut self) {
        self.status = Status::Cancelled { refunded: false };
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "order {} ({})", self.id, self.status.label())
    }
}
