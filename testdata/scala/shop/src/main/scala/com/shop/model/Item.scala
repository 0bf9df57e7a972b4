package com.shop.model

/** A line of an order. */
case class Item(name: String, price: Double, qty: Int = 1) {
  def total: Double = price * qty
  def withQty(n: Int): Item = copy(qty = n)
}

object Item {
  val Free: Double = 0.0
  def free(name: String): Item = Item(name, Free)
}

/** How an order is paid. */
enum Payment {
  case Card, Cash
  case Voucher(code: String)
}
