import Foundation

public class Receipts {
    private var count = 0

    func record(_ order: Order, how: String) -> Int {
        count += 1
        return Money.format(order.price, currency: how).count
    }
}

enum Money2 {}

public struct Checkout {
    let rate: Double
    private let receipts = Receipts()

    public init(rate: Double) {
        self.rate = rate
    }

    public func pay(_ order: Order, with payment: Payment) -> String {
        let amount = order.discount(rate: rate)
        log("paying \(amount)")
        _ = receipts.record(order, how: payment.describe())
        return order.summary(for: payment)
    }

    public func quick(customer: String) -> String {
        let order = Order(customer: customer)
        order.add("pen", price: 1.5).add(Item.free("bag"))
        let extra = Item(name: "ink", price: 2)
        order.add(extra)
        for i in [extra] {
            _ = i.total()
        }
        return pay(order, with: .card)
    }

    func priced(_ p: Priced) -> String {
        return p.describe() + p.label()
    }
}

func log(_ message: String) {
    print(message)
}

extension Double {
    static func format(_ amount: Double, currency: String) -> String {
        return String(format: "%.2f", amount) + " " + currency
    }
}
