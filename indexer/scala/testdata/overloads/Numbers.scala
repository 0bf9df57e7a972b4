package ov.numbers

object Num {
  def w(x: Int): String = "int"
  def w(x: Long): String = "long"
  def w(x: Double): String = "double"

  def f(x: Long): String = "long"
  def f(x: Float): String = "float"

  def g(x: Double): String = "double"
  def g(x: String): String = "string"

  def c(x: Char): String = "char"
  def c(x: Int): String = "int"
  def c(x: String): String = "string"

  def b(x: Boolean): String = "bool"
  def b(x: Int): String = "int"

  def s(x: Short): String = "short"
  def s(x: String): String = "string"

  def n(x: String): String = "string"
  def n(x: Int): String = "int"

  def any(x: Any): String = "any"
  def any(x: Int): String = "int"
}

class Runner {
  def run(): Unit = {
    Num.w(1)
    Num.w(2L)
    Num.w(1.5)
    Num.w(1f)
    Num.w('a')
    Num.f(1)
    Num.f(1L)
    Num.f(1.5f)
    Num.g(1)
    Num.g("x")
    Num.c('a')
    Num.c(1)
    Num.c("s")
    Num.b(true)
    Num.b(0)
    Num.s("s")
    Num.n(null)
    Num.n(3)
    Num.any(1)
    Num.any("x")
    Num.any(null)
    val i = 3
    val l: Long = 4
    val d = 2.0
    val str = "t"
    Num.w(i)
    Num.w(l)
    Num.w(d)
    Num.g(str)
    Num.c(i)
  }
}
