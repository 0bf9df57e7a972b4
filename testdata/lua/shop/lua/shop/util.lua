--- Formatting helpers.
local util = {}

util.CURRENCY = "EUR"

local function pad(s, n)
  return string.rep(" ", n - #s) .. s
end

--- Rounds a value to cents.
function util.round(value)
  return math.floor(value * 100 + 0.5) / 100
end

function util.format(cents)
  return pad(tostring(util.round(cents / 100)), 8) .. " " .. util.CURRENCY
end

util.trim = function(s)
  return (s:gsub("^%s+", ""))
end

return util
