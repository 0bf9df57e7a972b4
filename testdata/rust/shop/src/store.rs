//! Where orders are kept.

pub mod memory;

use crate::models::Order;

/// Something with a name.
pub trait Named {
    fn name(&self) -> String;
}

/// A place to keep orders.
pub trait Store: Named {
    fn get(&self, id: u32) -> Option<&Order>;
    fn put(&mut self, order: Order);
}
