package lua_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/lua"
)

func TestScopes(t *testing.T) {
	e := languagetest.Edges(t, map[string]string{
		"a.lua": `local function f() end
local function g()
  f()
  local function f() end
  f()
  h()
end
local h = function() end
do
  local f = 1
  f()
end
f()`,
	}, lua.New())
	languagetest.Expect(t, e, []string{
		"g -calls-> f (local) a.lua:3",
		"g -calls-> f (local) a.lua:5",
		"g -calls-> ?h (unresolved: unknown global h) a.lua:6",
		"a.lua -calls-> ?f (unresolved: local of unknown value) a.lua:11",
		"a.lua -calls-> f (local) a.lua:13",
	},
		// h is declared after g: g's h is a global.
		"g -calls-> h (local)",
		// the local f = 1 shadows the function.
		"a.lua -calls-> f (local) a.lua:11")
}

func TestModulesAndClasses(t *testing.T) {
	e := languagetest.Edges(t, map[string]string{
		"src/animal.lua": `local Animal = {}
Animal.__index = Animal
function Animal.new(name) return setmetatable({name = name}, Animal) end
function Animal:speak() end
function Animal:eat() end
return Animal`,
		"src/dog.lua": `local Animal = require("animal")
local Dog = setmetatable({}, {__index = Animal})
Dog.__index = Dog
function Dog.new(name) local d = Animal.new(name); return setmetatable(d, Dog) end
function Dog:speak() self:eat() end
local function walk(d) d:speak() end
local x = Dog.new("rex")
x:speak()
local y = Animal.new("cat")
y:speak()
y = other
y:speak()
return Dog`,
		"other/animal.lua": `local M = {} function M.speak() end return M`,
	}, lua.New())
	languagetest.Expect(t, e, []string{
		"Dog -extends-> Animal (import) src/dog.lua:2",
		"Dog:speak -calls-> Animal:eat (receiver) src/dog.lua:5",
		"src/dog.lua -calls-> Dog:speak (receiver) src/dog.lua:8",
		"src/dog.lua -calls-> Animal:speak (receiver) src/dog.lua:10",
		"src/dog.lua -calls-> ?y:speak (unresolved: local of unknown value) src/dog.lua:12",
		"walk -calls-> ?d:speak (unresolved: local of unknown value) src/dog.lua:6",
		"src/dog.lua -imports-> src/animal.lua (import)",
	}, "src/dog.lua -calls-> Animal:speak (receiver) src/dog.lua:8", "src/dog.lua -calls-> M.speak",
		"src/dog.lua -calls-> Dog:speak (receiver) src/dog.lua:12")
}
