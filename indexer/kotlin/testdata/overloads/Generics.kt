package ov

// Generic parameters accept anything: a call they compete in stays
// undecided unless the other overloads cannot apply.

class Box<T>(val item: T) {
    fun put(x: T) = x
    fun put(x: Int, y: Int) = x + y
    fun get(): T = item
}

fun <T> pick(x: T) = x
fun pick(x: Int, y: Int) = x

fun <T> first(xs: List<T>) = xs.first()
fun first(s: String) = s

fun generics(b: Box<String>) {
    b.put("x")
    b.put(1, 2)
    pick("a")
    pick(1, 2)
    first(listOf(1))
    first("s")
}
