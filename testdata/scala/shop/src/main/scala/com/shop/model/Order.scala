package com.shop
package model

import scala.collection.mutable.ListBuffer

trait Priced {
  def price: Double
  def describe(): String = s"costs $price"
}

trait Discounted extends Priced {
  def discount(rate: Double): Double = price * (1 - rate)
}

abstract class Entity(val id: Long) {
  def key: String = s"entity-$id"
}

/** An order: items and a customer. */
class Order(id: Long, val customer: String) extends Entity(id) with Discounted {
  private val items = ListBuffer.empty[Item]
  var note: String = ""

  def this(customer: String) = this(0L, customer)

  def add(item: Item): Order = {
    items += item
    this
  }

  def add(name: String, price: Double): Order = add(Item(name, price))

  def price: Double = items.map(_.total).sum

  override def describe(): String = key + " " + super.describe()
}

object Order {
  type Id = Long
  def empty(customer: String): Order = new Order(customer)
}
