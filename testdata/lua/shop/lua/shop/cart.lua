local Base = require("shop.base")
local util = require "shop.util"

--- A shopping cart.
local Cart = setmetatable({}, {__index = Base})
Cart.__index = Cart
Cart.MAX_ITEMS = 10

function Cart.new(owner)
  local self = setmetatable(Base.new(owner), Cart)
  self.items = {}
  return self
end

function Cart:add(name, price)
  if #self.items >= Cart.MAX_ITEMS then
    error("full")
  end
  self.items[#self.items + 1] = { name = name, price = price }
  self:save()
  return self
end

function Cart:total()
  local sum = 0
  for _, item in ipairs(self.items) do
    sum = sum + item.price
    item:describe()
  end
  return sum
end

function Cart:summary()
  local other = Cart.new("copy")
  other:add("x", 1)
  return util.format(self:total())
end

return Cart
