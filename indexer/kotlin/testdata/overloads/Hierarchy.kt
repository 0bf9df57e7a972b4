package ov

// Overloads spread over a class hierarchy, overrides, this and super.

abstract class Base {
    abstract fun handle(x: Int): String
    open fun handle(x: String) = "base"
    fun log(msg: String) = msg
    fun log(msg: String, level: Int) = msg + level
}

open class Middle : Base() {
    override fun handle(x: Int) = "middle"
    fun log(n: Int) = n.toString()
}

class Leaf : Middle() {
    override fun handle(x: String) = "leaf"

    fun work() {
        handle(1)
        handle("s")
        log("m")
        log("m", 2)
        log(3)
        this.log(4)
        super.handle("t")
        take(this)
        take(Leaf())
    }

    fun take(b: Base) = b
    fun take(m: Middle) = m
    fun take(s: String) = s
}

fun hierarchy(b: Base, m: Middle, l: Leaf) {
    b.handle(1)
    b.handle("x")
    m.handle(1)
    m.log("y")
    m.log(2)
    l.log("z", 1)
    l.take(m)
    l.take(l)
    l.take(b)
}
