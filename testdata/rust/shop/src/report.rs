//! Two traits that both give an order a report.

use crate::models::Order;

pub trait Audit {
    fn report(&self) -> String;
}

pub trait Export {
    fn report(&self) -> String;
}

impl Audit for Order {
    fn report(&self) -> String {
        format!("audit of {}", self.id)
    }
}

impl Export for Order {
    fn report(&self) -> String {
        serde_json::to_string(&self.id).unwrap_or_default()
    }
}

pub fn print_report(order: &Order) {
    println!("{}", Audit::report(order));
    println!("{}", <Order as Export>::report(order));
}

pub mod audit {
    use super::Audit;
    use crate::models::Order;

    /// Only Audit is in scope here, so Rust picks it; two traits give Order
    /// a report, so the resolver leaves the call ambiguous.
    pub fn summary(order: &Order) -> String {
        order.report()
    }
}
