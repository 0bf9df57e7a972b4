package com.shop

package object util {
  def log(msg: String): Unit = println(msg)
  val Version = "1.0"
}
