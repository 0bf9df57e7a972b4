package com.example.shop.model

import java.math.BigDecimal

/**
 * A product on sale.
 */
data class Product(val sku: String, val name: String, val price: BigDecimal) {
    fun label(): String = "$name ($sku)"

    companion object {
        const val MAX_NAME = 80

        fun of(sku: String, price: Int): Product = Product(sku, sku.uppercase(), BigDecimal(price))
    }
}

typealias Sku = String
