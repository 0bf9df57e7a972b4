package com.shop

import org.junit.Test
import com.shop.model.{Item, Order}
import com.shop.service.Checkout

class CheckoutSpec {
  private def checkout = new Checkout(0)

  @Test def paysOrders(): Unit = {
    val order = new Order("ann").add(Item.free("bag"))
    assert(checkout.quick("ann").nonEmpty)
    assert(order.price == 0)
  }
}
