import ShopCore

let checkout = Checkout(rate: 0.1)
let order = Order(id: 1, customer: "ann")
print(checkout.pay(order, with: .cash))
print(checkout.quick(customer: "bob"))
order.add(Order(customer: "cy"))
unknown.call()
