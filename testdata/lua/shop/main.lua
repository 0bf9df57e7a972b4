package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
local shop = require("shop")

function greet(name)
  return "hello " .. name
end

local function run()
  local cart = shop.open("ann")
  shop.report(cart)
  greet("ann")
  missing()
end

run()
