package com.example.shop

import com.example.shop.model.Product
import com.example.shop.model.format
import java.math.BigDecimal

/**
 * A shopping cart.
 */
class Cart(private val owner: String) {
    private val items = mutableListOf<Product>()
    var discount: Discount = NoDiscount

    constructor() : this("guest")

    fun add(product: Product) {
        items.add(product)
    }

    fun add(product: Product, times: Int) {
        for (i in 0 until times) {
            this.add(product)
        }
    }

    fun add(sku: String, price: Int) {
        add(Product.of(sku, price))
    }

    fun subtotal(): BigDecimal = items.fold(BigDecimal.ZERO) { acc, p -> acc + p.price }

    fun total(): BigDecimal = discount.apply(subtotal())

    fun summary(): String = "$owner: ${total().format()}"

    protected open fun size(): Int = items.size
}
