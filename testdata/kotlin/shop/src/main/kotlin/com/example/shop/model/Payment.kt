package com.example.shop.model

import java.math.BigDecimal

sealed class Payment(val amount: BigDecimal) {
    abstract fun describe(): String

    class Card(amount: BigDecimal, val last4: String) : Payment(amount) {
        override fun describe(): String = "card $last4"
    }

    class Cash(amount: BigDecimal) : Payment(amount) {
        override fun describe(): String = "cash"
    }
}

enum class Currency(val symbol: String) {
    EUR("€"),
    USD("$");

    fun show(): String = symbol
}
