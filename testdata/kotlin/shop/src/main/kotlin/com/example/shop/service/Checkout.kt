package com.example.shop.service

import com.example.shop.Cart
import com.example.shop.PercentDiscount as Percent
import com.example.shop.model.*
import com.example.shop.util.Log

class Checkout(private val log: Log) {
    private val history: MutableList<Cart> = ArrayList()

    suspend fun pay(cart: Cart, payment: Payment): Receipt {
        val total = cart.total()
        log.info("paying " + payment.describe())
        history.add(cart)
        return Receipt.create(cart, total.toString())
    }

    fun quick(sku: String): Receipt {
        val cart = Cart()
        cart.discount = Percent(10)
        cart.add(sku, 5)
        cart.add(Product("x", "X", zero()))
        return Receipt.create(cart, cart.summary())
    }

    private fun notify(cart: Cart) = log.info(cart.summary())
    private fun notify(cart: Cart, channel: String) = log.info(channel)
    private fun notify(channel: String, times: Int) = log.info(channel)

    fun resend(cart: Cart) {
        notify(cart, "mail")
        notify(cart)
        println(Currency.EUR.show())
    }
}

data class Receipt(val id: String, val text: String) {
    companion object Factory {
        private var next = 0

        fun create(cart: Cart, text: String): Receipt {
            next++
            return Receipt("r$next", text)
        }
    }
}
