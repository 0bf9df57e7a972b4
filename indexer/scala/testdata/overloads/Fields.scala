package ov.fields

import ov.shapes._

// Arguments that are members, objects and typed expressions.
object Origin extends Shape
object Nowhere

class Studio(val main: Circle, side: Square) {
  val label: Label = new Label("l")
  def current: Shape = main
  var count: Int = 0

  def work(): Unit = {
    Painter.paint(main)
    Painter.paint(side)
    Painter.paint(label)
    Painter.paint(current)
    Painter.paint(Origin)
    Painter.describe(Nowhere)
    Painter.describe(Origin)
    Painter.describe(null: String)
    Painter.describe(main: Shape)
    Painter.describe(count)
    val other = new Studio(main, side)
    Painter.paint(other.main)
    Painter.paint(other.label)
    Painter.describe(other.count)
  }
}
