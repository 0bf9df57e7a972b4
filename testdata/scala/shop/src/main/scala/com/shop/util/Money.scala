package com.shop.util

object Money {
  def format(amount: Double): String = f"$amount%.2f"
  def format(amount: Double, currency: String): String = format(amount) + " " + currency
  def round(amount: Double): Double = math.round(amount * 100) / 100.0
}
