package ruby_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/ruby"
)

// edges indexes files (path → source) and returns the golden lines of its
// edges.
var edges = languagetest.EdgesWith(ruby.New())

func TestConstantLookup(t *testing.T) {
	e := edges(t, map[string]string{
		"lib/a.rb": `module A
  class Tool
    def self.make; end
  end
  class User
    def go
      Tool.make
      ::Tool.make
      B::Tool.make
    end
  end
end
class Tool
  def self.make; end
end
module B
  class Tool
    def self.make; end
  end
end
class A::Late
  def go
    Tool.make
  end
end`,
	})
	languagetest.Expect(t, e, []string{
		"A::User#go -calls-> A::Tool.make (scope) lib/a.rb:7",
		"A::User#go -calls-> Tool.make (scope) lib/a.rb:8",
		"A::User#go -calls-> B::Tool.make (scope) lib/a.rb:9",
		// class A::Late does not nest in A: Tool is the top-level one.
		"A::Late#go -calls-> Tool.make (scope) lib/a.rb:23",
	}, "A::Late#go -calls-> A::Tool.make", "A::User#go -calls-> Tool.make (scope) lib/a.rb:7")
}

func TestAncestors(t *testing.T) {
	e := edges(t, map[string]string{
		"a.rb": `module Loud
  def speak; end
end
module Quiet
  def speak; end
  def hush; end
end
class Animal
  def speak; end
  def eat; end
end
class Dog < Animal
  include Quiet
  include Loud
  def run
    speak
    hush
    eat
    self.eat
    bark
  end
end
class Cat < Animal
  prepend Quiet
  def speak; end
  def run
    speak
  end
end
class Robot < External::Base
  def go
    beep()
    self.class
  end
end`,
	})
	languagetest.Expect(t, e, []string{
		"Dog#run -calls-> Loud#speak (scope) a.rb:16",
		"Dog#run -calls-> Quiet#hush (scope) a.rb:17",
		"Dog#run -calls-> Animal#eat (scope) a.rb:18",
		"Dog#run -calls-> Animal#eat (scope) a.rb:19",
		"Cat#run -calls-> Quiet#speak (scope) a.rb:27",
		"Robot#go -calls-> ?beep (unresolved: member of external ancestor External::Base) a.rb:32",
		"Dog -extends-> Animal (scope)",
		"Dog -references-> Loud (scope)",
	}, "Dog#run -calls-> Animal#speak", "Dog#run -calls-> Quiet#speak", "Cat#run -calls-> Cat#speak",
		// bark is no method anywhere: a bare name is left out, it may be a local.
		"Dog#run -calls-> ?bark")
}

func TestReceivers(t *testing.T) {
	e := edges(t, map[string]string{
		"lib/shop/order.rb": `class Order
  def initialize(n); end
  def pay; end
  def self.build; new(1); end
end`,
		"lib/shop/cart.rb": `require "shop/order"
class Cart
  def go(other)
    o = Order.new(1)
    o.pay
    other.pay
    Order.build.pay
    x = Order.new(1)
    x = other
    x.pay
    Order.pay
  end
end`,
	})
	languagetest.Expect(t, e, []string{
		"Cart#go -instantiates-> Order (scope) lib/shop/cart.rb:4",
		"Cart#go -calls-> Order#initialize (scope) lib/shop/cart.rb:4",
		"Cart#go -calls-> Order#pay (receiver) lib/shop/cart.rb:5",
		"Cart#go -calls-> ?other.pay (unresolved: local of unknown class) lib/shop/cart.rb:6",
		"Cart#go -calls-> Order.build (scope) lib/shop/cart.rb:7",
		"Cart#go -calls-> ?Order.build.pay (unresolved: result of a call) lib/shop/cart.rb:7",
		"Cart#go -calls-> ?x.pay (unresolved: local of unknown class) lib/shop/cart.rb:10",
		"Cart#go -calls-> ?Order.pay (unresolved: unknown method pay) lib/shop/cart.rb:11",
		"Order.build -instantiates-> Order (scope)",
		"lib/shop/cart.rb -imports-> lib/shop/order.rb (import)",
	}, "Cart#go -calls-> Order#pay (receiver) lib/shop/cart.rb:10", "Cart#go -calls-> Order#pay (receiver) lib/shop/cart.rb:6",
		"Cart#go -calls-> Order#pay (scope) lib/shop/cart.rb:11")
}

func TestFunctionsAndRequires(t *testing.T) {
	e := edges(t, map[string]string{
		"lib/util.rb":  "def helper; end\n",
		"lib/other.rb": "def helper; end\ndef lonely; end\n",
		"lib/main.rb":  "require 'util'\nhelper()\nlonely()\nputs 1\n",
		"lib/dup.rb":   "require 'util'\nrequire 'other'\nhelper()\n",
	})
	languagetest.Expect(t, e, []string{
		"lib/main.rb -calls-> helper (import) lib/main.rb:2",
		"lib/main.rb -calls-> ?lonely (unresolved: unknown method lonely) lib/main.rb:3",
		"lib/main.rb -calls-> ?puts (unresolved: external Kernel) lib/main.rb:4",
		"lib/dup.rb -calls-> ?helper (ambiguous: defined in several files) lib/dup.rb:3",
	}, "lib/main.rb -calls-> lonely")
}
