package ov.extra

// Repeated parameters, defaults, named arguments, traits, companions.
trait Logger {
  def log(msg: String): Int = 1
  def log(code: Int): Int = 2
  def log(msg: String, level: Int): Int = 3
}

class Console extends Logger

object Util {
  def sum(xs: Int*): Int = xs.sum
  def sum(first: String, xs: String*): Int = xs.length

  def join(a: String, sep: String = ","): String = a
  def join(a: Int): String = "int"

  def opt(a: Int, b: String = "x"): Int = 1
  def opt(a: String, b: Int): Int = 2

  def named(first: Int, second: String): Int = 1
  def named(first: String, second: Int): Int = 2

  def one(x: Int): Int = 1
  def one(x: Int, rest: Int*): Int = 2
}

class Client(logger: Logger) {
  def go(): Unit = {
    logger.log("m")
    logger.log(3)
    logger.log("m", 2)
    val c = new Console
    c.log("x")
    c.log(7)
    Util.sum(1, 2, 3)
    Util.sum("a", "b")
    Util.join("a")
    Util.join(3)
    Util.join("a", ";")
    Util.opt(1)
    Util.opt("s", 2)
    Util.named(second = "s", first = 1)
    Util.named(1, "t")
    Util.named(first = "f", second = 2)
    Util.one(1)
    Util.one(1, 2)
  }
}
