package com.example.shop.util

/** A tiny logger. */
open class Log(val prefix: String = "shop") {
    open fun info(message: String) {
        System.out.println("$prefix: $message")
    }
}

class TimedLog : Log("timed") {
    override fun info(message: String) {
        super.info(now() + " " + message)
    }

    private fun now(): String = java.time.Instant.now().toString()
}
