package ov.uses

import ov.shapes._

class Gallery {
  def show(): Unit = {
    val c = new Circle(1.0)
    val sq = new Square(2.0)
    val u = new Unit3
    val l = new Label("x")
    Painter.paint(c)
    Painter.paint(sq)
    Painter.paint(u)
    Painter.paint(l)
    Painter.paint(new Circle(2.0))
    Painter.fill(c, 1)
    Painter.fill(u, 2L)
    Painter.describe(1)
    Painter.describe("s")
    Painter.describe(c)
    Painter.describe(l)
    val canvas = new Canvas
    canvas.draw(c)
    canvas.draw(l)
    canvas.draw("text")
    canvas.draw(null: String)
    canvas.draw(sq, 2)
  }
}
