//! A small shop: orders of items, priced by pluggable rules.

extern crate alloc;

pub mod models;
pub mod pricing;
pub mod report;
pub mod store;
mod util;

pub use models::{Item, Order};
pub use pricing::Discount as SeasonDiscount;

/// Logs an event of the shop.
#[macro_export]
macro_rules! log_event {
    ($($t:tt)*) => { println!($($t)*) };
}

/// The result of shop operations.
pub type Result<T> = std::result::Result<T, ShopError>;

/// What can go wrong.
#[derive(Debug)]
pub enum ShopError {
    NotFound(u32),
    Closed,
}

/// Opens an order with one item.
pub fn open_order(id: u32, item: Item) -> Result<Order> {
    let mut order = Order::new(id);
    order.add(item);
    Ok(order)
}

/// Totals the order id of a fresh order.
pub fn quick_total(id: u32) -> Result<u64> {
    let item = Item::new("tea", 3);
    let total = open_order(id, item)?.total();
    Ok(util::round(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_one_item() {
        let order = open_order(1, Item::new("tea", 3)).unwrap();
        assert_eq!(order.total(), 3);
        assert!(quick_total(2).is_ok());
    }
}
