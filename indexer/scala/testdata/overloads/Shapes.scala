package ov.shapes

// A hierarchy of the project: overloads on its types.
trait Shape { def area(): Double = 0.0 }
class Circle(val r: Double) extends Shape
class Square(val side: Double) extends Shape
class Unit3 extends Square(3.0)

trait Named
class Label(val text: String) extends Named

object Painter {
  def paint(s: Shape): String = "shape"
  def paint(c: Circle): String = "circle"
  def paint(n: Named): String = "named"

  def fill(s: Shape, times: Int): Int = 1
  def fill(s: Square, times: Long): Int = 2

  def describe(x: Any): String = "any"
  def describe(x: String): String = "string"
  def describe(s: Shape): String = "shape"
}

class Canvas {
  def draw(s: Shape): Int = 1
  def draw(s: Shape, layer: Int): Int = 2
  def draw(l: Label): Int = 3
  def draw(text: String): Int = 4
}
