require "minitest/autorun"
require "shop"

def build_cart
  Shop::Cart.new("ann")
end
