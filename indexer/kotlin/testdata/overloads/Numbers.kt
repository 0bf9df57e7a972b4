package ov

// Numeric literals and typed values against Int, Long, Double, Float,
// Short and Byte parameters: no implicit widening in Kotlin.

fun num(x: Int) = "Int"
fun num(x: Long) = "Long"
fun num(x: Double) = "Double"
fun num(x: Float) = "Float"

fun wide(x: Long) = x
fun wide(x: Double) = x

fun small(x: Short) = x
fun small(x: String) = x

fun tiny(x: Byte) = x
fun tiny(x: Boolean) = x

fun text(x: String) = x
fun text(x: Char) = x
fun text(x: Boolean) = x

fun numbers(i: Int, l: Long, d: Double) {
    num(1)
    num(2L)
    num(1.5)
    num(2.5f)
    num(i)
    num(l)
    num(d)
    wide(3)
    wide(3.0)
    wide(l)
    small(4)
    small("four")
    tiny(5)
    tiny(true)
    text("a")
    text('a')
    text(false)
    val local = 7L
    num(local)
    val typed: Int = 8
    num(typed)
}
