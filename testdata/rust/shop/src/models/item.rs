/// One thing for sale.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub name: String,
    pub price: u64,
}

/// An amount of money, in cents.
pub struct Money(pub u64);

impl Item {
    /// Makes an item.
    pub fn new(name: &str, price: u64) -> Self {
        Item { name: String::from(name), price }
    }

    pub fn price(&self) -> u64 {
        self.price
    }

    pub fn cost(&self) -> Money {
        Money(self.price())
    }
}
