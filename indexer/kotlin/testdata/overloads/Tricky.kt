package ov

// Where the type of an argument is not what its declaration says: smart
// casts, lambdas with receivers, extension receivers; scopes that give
// way to outer ones.

fun feed(n: Int) = n
fun log(s: String) = s
fun treat(d: Dog) = d
fun treat(a: Animal) = a

fun Dog.bark() = describe(this)
fun Animal.wag() = treat(this)

class Walker {
    fun log(n: Int) = n
    fun treat(n: Int) = n

    fun walk(a: Animal, d: Dog, x: Any) {
        log("s")
        log(1)
        treat(2)
        treat(d)
        if (a is Dog) {
            treat(a)
        }
        if (x is String) {
            anything(x)
        }
        d.apply { feed(3) }
        with(d) { describe(this) }
        a.let { describe(it) }
        apply { log(4) }
        run { log("r") }
        d.run { feed(5) }
    }
}

fun smart(ns: String?, a: Animal) {
    if (ns != null) {
        maybe(ns)
    }
    val b: Animal = a
    if (b !is Dog) return
    describe(b)
    describe(a as Dog)
    describe(a)
}

fun <T> gen(x: T, y: T?) {
    anyNull(x)
    anyNull(y)
}

class Outer {
    fun greet(n: Int) = n
    inner class Inner {
        fun greet(s: String) = s
        fun call() {
            greet(1)
            greet("s")
        }
    }
}

fun of(x: Int) = x
fun speak() = "top"

class Maker {
    fun make() = of(1)

    companion object {
        fun of(x: Int) = Maker()
        fun again() = of(2)
    }
}

fun Dog.bark2() = speak()
fun Dog.bark3() = log("x")

fun Walker.stroll(n: Int) = n
fun stroll(s: String) = s

class Park {
    fun visit() {
        stroll("s")
    }
}
