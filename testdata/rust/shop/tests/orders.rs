use shop::models::Order;
use shop::Item;

#[test]
fn pays_an_order() {
    let mut order = Order::new(7);
    order.add(Item::new("cake", 5));
    assert_eq!(order.pay().label(), "paid");
}
