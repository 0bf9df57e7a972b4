package ov.extra

// An implicit conversion in scope: overloads stay unchosen by types.
object Conv {
  implicit def stringToInt(s: String): Int = s.length
}

class Converting {
  import Conv._
  def go(): Unit = {
    Util.one(1)
    Util.named(1, "t")
    Util.join(3)
  }
}
