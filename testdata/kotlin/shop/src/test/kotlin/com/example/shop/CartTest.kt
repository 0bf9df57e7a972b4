package com.example.shop

import com.example.shop.model.Product
import kotlin.test.Test
import kotlin.test.assertEquals

class CartTest {
    private fun cart(): Cart = Cart("test")

    @Test
    fun addsProducts() {
        val c = cart()
        c.add(Product.of("a", 1), 2)
        assertEquals("test: 2.00", c.summary())
    }
}
