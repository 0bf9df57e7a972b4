local Cart = require("shop.cart")

describe("cart", function()
  it("adds items", function()
    local cart = Cart.new("bob")
    cart:add("apple", 3)
    assert.are.equal(3, cart:total())
  end)
end)
