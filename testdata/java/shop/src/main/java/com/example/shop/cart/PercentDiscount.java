package com.example.shop.cart;

import com.example.shop.model.Money;

/** A discount of a percentage of the amount. */
public class PercentDiscount implements Discount {
    private final int percent;

    public PercentDiscount(int percent) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percent out of range: " + percent);
        }
        this.percent = percent;
    }

    @Override
    public Money apply(Money amount) {
        long off = amount.cents() * percent / 100;
        return new Money(amount.cents() - off, amount.currency());
    }

    @Override
    public String describe() {
        return percent + "% off";
    }
}
