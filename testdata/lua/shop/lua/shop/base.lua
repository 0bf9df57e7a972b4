-- The base of every model.
local Base = {}
Base.__index = Base

function Base.new(id)
  local self = setmetatable({}, Base)
  self.id = id
  return self
end

function Base:save()
  self:validate()
  return true
end

function Base:validate()
  if not self.id then
    error("no id")
  end
end

return Base
