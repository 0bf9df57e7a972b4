package com.example.shop

import java.math.BigDecimal

/** A discount applied to a subtotal. */
interface Discount {
    fun apply(amount: BigDecimal): BigDecimal
}

object NoDiscount : Discount {
    override fun apply(amount: BigDecimal): BigDecimal = amount
}

class PercentDiscount(private val percent: Int) : Discount {
    override fun apply(amount: BigDecimal): BigDecimal {
        val factor = BigDecimal(100 - percent)
        return amount.multiply(factor).divide(BigDecimal(100))
    }
}

abstract class Promotion : Discount {
    abstract val code: String
}
