use shop::pricing::{self, Pricing, Regular};
use shop::store::{memory::MemoryStore, Store};
use shop::{Item, Order, SeasonDiscount};

mod cli;

fn main() {
    let mut order = Order::new(1);
    order.add(Item::new("tea", 3));
    let mut store = MemoryStore::new();
    let rule = SeasonDiscount::new(10);
    let price = pricing::total_with(&rule, &order);
    shop::log_event!("price {}", price);
    println!("{} {}", Regular.name(), order.pay().label());
    store.put(order);
    cli::show(&store);
}
