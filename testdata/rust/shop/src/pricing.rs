//! Pricing rules.

use crate::models::Order;
use crate::util;

/// A way to price an order.
pub trait Pricing {
    fn price_of(&self, order: &Order) -> u64;

    fn name(&self) -> String;

    /// Says what the rule is, by default its name.
    fn describe(&self) -> String {
        format!("pricing: {}", self.name())
    }
}

/// Full price.
pub struct Regular;

/// A discount in percent.
pub struct Discount {
    pub percent: u64,
}

impl Pricing for Regular {
    fn price_of(&self, order: &Order) -> u64 {
        order.total()
    }

    fn name(&self) -> String {
        "regular".to_string()
    }
}

impl Pricing for Discount {
    fn price_of(&self, order: &Order) -> u64 {
        let full = Regular.price_of(order);
        util::round(full - full * self.percent / 100)
    }

    fn name(&self) -> String {
        format!("{}% off", self.percent)
    }
}

impl Discount {
    pub fn new(percent: u64) -> Discount {
        Discount { percent: percent.min(100) }
    }
}

/// Prices an order with any rule: a generic function.
pub fn total_with<P: Pricing>(rule: &P, order: &Order) -> u64 {
    rule.price_of(order)
}

/// The lowest price any of the rules gives.
pub fn best(rules: &[Box<dyn Pricing>], order: &Order) -> u64 {
    let mut best = u64::MAX;
    for rule in rules {
        best = best.min(rule.price_of(order));
    }
    best
}

pub fn describe_discount(percent: u64) -> String {
    let d = Discount::new(percent);
    d.describe()
}

pub mod seasonal {
    use super::Discount;

    /// The discount of the season.
    pub fn current() -> Discount {
        Discount { percent: super::util::SEASON_PERCENT }
    }

    pub fn summer() -> super::Discount {
        let d = current();
        self::current();
        d
    }
}
