package com.example.shop.cart;

import com.example.shop.model.Money;

/** A fixed amount off, never below zero. */
public final class FixedDiscount implements Discount {
    private final Money off;

    public FixedDiscount(Money off) {
        this.off = off;
    }

    @Override
    public Money apply(Money amount) {
        if (amount.compareTo(off) <= 0) {
            return Money.ZERO;
        }
        return new Money(amount.cents() - off.cents(), amount.currency());
    }
}
