package com.shop.service

import com.shop.model.{Item, Order => ShopOrder, Payment}
import com.shop.util._
import com.shop.util.Money.round

/** Prices and pays orders. */
class Checkout(rate: Double) {
  private val receipts = new Receipts()

  def pay(order: ShopOrder, payment: Payment): String = {
    val amount = order.discount(rate)
    log("paying " + Money.format(round(amount)))
    payment match {
      case Payment.Voucher(code) => receipts.record(order, code)
      case p: Payment => receipts.record(order, p.toString)
    }
    order.describe()
  }

  def quick(customer: String): String = {
    val order = ShopOrder.empty(customer)
    order.add("pen", 1.5).add(Item.free("bag"))
    val extra = Item("ink", 2.0)
    order.add(extra.withQty(2))
    for (i <- List(extra)) i.total
    pay(order, Payment.Card)
  }
}

class Receipts {
  private var count = 0
  def record(order: ShopOrder, how: String): Int = {
    count += 1
    Money.format(order.price, how).length
  }
}
