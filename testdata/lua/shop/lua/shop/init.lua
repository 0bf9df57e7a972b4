local Cart = require("shop.cart")
local util = require("shop.util")

local M = {}

M.version = "1.0"

function M.open(owner)
  local cart = Cart.new(owner)
  cart:add("welcome", 0)
  return cart
end

function M.report(cart)
  print(util.format(cart:total()))
  return M.version
end

return M
