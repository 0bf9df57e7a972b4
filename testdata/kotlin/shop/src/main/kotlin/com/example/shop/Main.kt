package com.example.shop

import com.example.shop.service.Checkout
import com.example.shop.util.TimedLog
import kotlinx.coroutines.runBlocking

fun total(carts: List<Cart>): Int = carts.size

fun main() = runBlocking {
    val checkout = Checkout(TimedLog())
    val receipt = checkout.quick("apple")
    println(receipt.text)
    total(listOf(Cart("ann")))
}
