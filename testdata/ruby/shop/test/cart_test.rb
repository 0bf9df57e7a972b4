require "test_helper"

class CartTest < Minitest::Test
  def setup
    @cart = build_cart
  end

  def test_add
    cart = Shop::Cart.new("bob")
    cart.add("apple", 3)
    assert_equal 1, cart.count
  end

  def test_checkout
    gateway = Shop::Payments::FakeGateway.new
    order = build_cart.checkout(gateway)
    assert order.paid
  end
end
