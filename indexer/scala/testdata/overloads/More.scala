package ov.more

// A case class whose companion adds applies; overloads over two levels
// of a hierarchy; generic, by-name and value-class parameters.
case class Money(cents: Long)

object Money {
  def apply(s: String): Money = new Money(s.length.toLong)
  def apply(d: Double, rounded: Boolean): Money = new Money(d.toLong)
}

class Base {
  def put(x: Int): Int = 1
  def put(x: Any): Int = 2
}

class Derived extends Base {
  def put(x: String): Int = 3
  def put(x: Boolean): Int = 4
}

class Meters(val v: Double) extends AnyVal

object Gen {
  def id[T](x: T): Int = 1
  def id(x: Int): Int = 2

  def lazily(x: => Int): Int = 1
  def lazily(x: String): Int = 2

  def len(m: Meters): Int = 1
  def len(s: String): Int = 2
}

class Shop {
  def buy(): Unit = {
    Money(100L)
    Money("ten")
    Money(1.5, true)
    val d = new Derived
    d.put("s")
    d.put(true)
    d.put(1)
    val b = new Base
    b.put(1)
    b.put("s")
    Gen.id(1)
    Gen.id("s")
    Gen.lazily(1)
    Gen.lazily("s")
    Gen.len(new Meters(1.0))
    Gen.len("s")
    Gen.len(null)
  }
}
