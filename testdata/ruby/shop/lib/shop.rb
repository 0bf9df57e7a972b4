# frozen_string_literal: true

require "json"
require "shop/version"
require "shop/cart"
require_relative "shop/payments/gateway"

# The shop: carts, orders and payments.
module Shop
  class Error < StandardError; end

  # Opens a cart for owner.
  def self.open(owner)
    Cart.new(owner)
  end
end

def banner
  "shop #{Shop::VERSION}"
end

puts banner
