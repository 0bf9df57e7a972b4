package ov.ctors

class Point(val x: Int, val y: Int) {
  def this(x: Int) = this(x, 0)
  def this(s: String) = this(s.length)
  def this(d: Double) = this(d.toInt)
  def this(p: Point, dx: Int) = this(p.x + dx, p.y)
  def this(s: String, dx: Long) = this(s.length + dx.toInt, 1)
}

object Point {
  def apply(x: Int): Point = new Point(x)
  def apply(s: String): Point = new Point(s)
  def apply(x: Int, y: Int): Point = new Point(x, y)
}

class Builder {
  def make(): Unit = {
    new Point(1)
    new Point("a")
    new Point(2.5)
    new Point(1, 2)
    val p = new Point(3)
    new Point(p, 4)
    new Point("b", 5L)
    new Point("b", 5)
    Point(1)
    Point("z")
    Point(1, 2)
  }
}
