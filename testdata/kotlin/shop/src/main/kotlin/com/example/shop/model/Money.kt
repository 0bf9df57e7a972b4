package com.example.shop.model

import java.math.BigDecimal

/** Formats an amount for display. */
fun BigDecimal.format(): String = "%.2f".format(this)

internal fun zero(): BigDecimal = BigDecimal.ZERO
