import Foundation

/// A line of an order.
public struct Item: Equatable {
    public let name: String
    public var price: Double
    var qty: Int = 1

    public func total() -> Double {
        return price * Double(qty)
    }

    public static func free(_ name: String) -> Item {
        return Item(name: name, price: 0)
    }
}

/// How an order is paid.
public enum Payment {
    case card, cash
    case voucher(String)

    public func describe() -> String {
        switch self {
        case .card: return "card"
        case .cash: return "cash"
        case .voucher(let code): return code
        }
    }
}

public typealias Money = Double
