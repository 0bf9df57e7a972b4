package com.shop

import com.shop.model.Order
import com.shop.service.Checkout

object Main {
  def main(args: Array[String]): Unit = {
    val checkout = new Checkout(0.1)
    val order = new Order(1L, "ann")
    checkout.pay(order, model.Payment.Cash)
    util.log(checkout.quick("bob"))
    unknown.call()
  }
}
