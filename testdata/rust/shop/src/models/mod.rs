//! The things the shop sells and the orders it takes.

pub mod item;
pub mod order;

pub use item::Item;
pub use order::{Order, Status};
