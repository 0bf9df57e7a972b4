/// Something with a price.
public protocol Priced {
    var price: Double { get }
    func describe() -> String
}

public protocol Discounted: Priced {
    func discount(rate: Double) -> Double
}

open class Entity {
    public let id: Int
    public init(id: Int) { self.id = id }
    func key() -> String { return "entity-\(id)" }
}

/// An order: items and a customer.
public final class Order: Entity, Discounted {
    public let customer: String
    private var items: [Item] = []
    static var count = 0

    public init(id: Int, customer: String) {
        self.customer = customer
        super.init(id: id)
        Order.count += 1
    }

    public convenience init(customer: String) {
        self.init(id: 0, customer: customer)
    }

    @discardableResult
    public func add(_ item: Item) -> Order {
        items.append(item)
        return self
    }

    /// Adds the items of another order: an overload told apart by type.
    @discardableResult
    public func add(_ other: Order) -> Order {
        items.append(contentsOf: other.items)
        return self
    }

    @discardableResult
    public func add(_ name: String, price: Double, qty: Int = 1) -> Order {
        return add(Item(name: name, price: price, qty: qty))
    }

    public var price: Double {
        return items.map { $0.total() }.reduce(0, +)
    }

    public func describe() -> String {
        return key() + " " + customer
    }

    public func discount(rate: Double) -> Double {
        return price * (1 - rate)
    }
}

extension Order: CustomStringConvertible {
    public var description: String { describe() }

    func summary(for payment: Payment) -> String {
        return describe() + " by " + payment.describe()
    }
}

extension Priced {
    func label() -> String { "costs \(price)" }
}
