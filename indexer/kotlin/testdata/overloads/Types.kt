package ov

// Nullability, subtypes across a project hierarchy, Any.

open class Animal(val name: String) {
    open fun speak(): String = name
    fun greet(other: Animal) = "animal"
    fun greet(other: Dog) = "dog"
    fun feed(food: String) = food
    fun feed(food: Int) = food
}

open class Dog(name: String) : Animal(name) {
    override fun speak(): String = "woof"
    fun feed(food: Dog) = food
}

class Puppy : Dog("puppy")

interface Named {
    fun label(): String
}

class Cat(name: String) : Animal(name), Named {
    override fun label() = name
}

fun describe(a: Animal) = "animal"
fun describe(d: Dog) = "dog"
fun describe(n: Named) = "named"

fun maybe(s: String) = 1
fun maybe(s: String?, extra: Int = 0) = 2

fun nullable(s: String?) = 1
fun nullable(s: Int) = 2

fun anything(x: Any) = 1
fun anything(x: String) = 2

fun anyNull(x: Any?) = 1
fun anyNull(x: Int) = 2

fun types(a: Animal, d: Dog, p: Puppy, c: Cat, s: String, ns: String?) {
    describe(a)
    describe(d)
    describe(p)
    describe(Puppy())
    describe(c as Named)
    a.greet(a)
    a.greet(d)
    a.greet(p)
    d.greet(d)
    d.feed("bone")
    d.feed(3)
    d.feed(p)
    p.feed(d)
    maybe(s)
    maybe(ns)
    maybe(null)
    maybe(s, 1)
    nullable(null)
    nullable(ns)
    nullable(3)
    anything(s)
    anything(1)
    anything(a)
    anyNull(null)
    anyNull(2)
    anyNull(ns)
    anyNull(s)
    val dog = Dog("rex")
    describe(dog)
    val any: Any = dog
    anything(any)
    p.speak()
    c.label()
}
