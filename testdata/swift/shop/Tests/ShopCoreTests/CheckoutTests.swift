import XCTest
@testable import ShopCore

final class CheckoutTests: XCTestCase {
    private func makeCheckout() -> Checkout {
        return Checkout(rate: 0)
    }

    func testPaysOrders() {
        let order = Order(customer: "ann").add(Item.free("bag"))
        XCTAssertFalse(makeCheckout().quick(customer: "ann").isEmpty)
        XCTAssertEqual(order.price, 0)
    }
}
