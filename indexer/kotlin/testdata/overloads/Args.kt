package ov

// Varargs, default values, named arguments, trailing lambdas.

fun join(vararg parts: String) = parts.joinToString()
fun join(first: String, second: String) = first + second

fun sum(vararg xs: Int) = xs.sum()
fun sum(a: Int) = a

fun pad(s: String, width: Int = 10, fill: Char = ' ') = s.padEnd(width, fill)
fun pad(n: Int, width: Int = 10) = n.toString().padStart(width)

fun opt(a: Int, b: String = "b") = a
fun opt(a: String) = a

fun opt2(a: Int) = a
fun opt2(a: Int, b: Int = 0) = a + b

fun named(x: Int, y: String) = 1
fun named(a: String, b: Int = 0) = 2

fun run(block: () -> Unit) = block()
fun run(n: Int) = n

fun repeatIt(times: Int, block: (Int) -> Unit) = (0 until times).forEach(block)
fun repeatIt(label: String, block: () -> Unit) = block()

fun args(arr: Array<String>) {
    join("a")
    join("a", "b")
    join("a", "b", "c")
    join()
    join(*arr)
    sum()
    sum(1)
    sum(1, 2)
    pad("x")
    pad("x", 3)
    pad("x", fill = '.')
    pad(5)
    pad(5, width = 3)
    opt(1)
    opt("s")
    opt(a = 2)
    opt2(1)
    opt2(1, 2)
    named(x = 1, y = "y")
    named(y = "y", x = 1)
    named(a = "a")
    named(b = 2, a = "a")
    named(1, "z")
    named("z", 1)
    run { }
    run(3)
    repeatIt(2) { }
    repeatIt("l") { }
}
