package ov

// Constructors with overloads, companion objects, objects, members and
// extensions, top-level functions called from classes.

class Point(val x: Int, val y: Int) {
    constructor(x: Int) : this(x, 0)
    constructor(s: String) : this(s.length)
    constructor(d: Double, y: Double) : this(d.toInt(), y.toInt())

    fun move(dx: Int) = Point(x + dx, y)
    fun move(dx: Int, dy: Int) = Point(x + dx, y + dy)
    fun move(p: Point) = Point(x + p.x, y + p.y)
    fun move(name: String) = this

    fun plus(other: Point) = move(other)
    fun shift() = move(this)

    companion object {
        fun of(x: Int) = Point(x)
        fun of(s: String) = Point(s)
        fun of(x: Int, y: Int) = Point(x, y)
        val ORIGIN = Point(0, 0)
    }
}

object Registry {
    fun add(p: Point) = p
    fun add(name: String) = name
    fun add(n: Int) = n
}

class Shape {
    fun area(p: Point) = p.x
}

fun Shape.area(name: String) = name.length
fun Shape.area(n: Int) = n

fun build(): Point = Point(1, 2)

fun classes(sh: Shape) {
    Point(1, 2)
    Point(3)
    Point("p")
    Point(1.0, 2.0)
    val p = Point(4)
    p.move(1)
    p.move(1, 2)
    p.move(p)
    p.move("n")
    p.move(Point(5))
    p.move(build())
    Point.of(1)
    Point.of("s")
    Point.of(1, 2)
    Point.ORIGIN.move(2)
    Registry.add(p)
    Registry.add("r")
    Registry.add(3)
    sh.area(p)
    sh.area("x")
    sh.area(3)
    build().move(p)
}
