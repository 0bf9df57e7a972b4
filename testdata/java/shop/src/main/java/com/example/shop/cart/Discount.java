package com.example.shop.cart;

import com.example.shop.model.Money;

/** A reduction applied to a cart's total. */
public interface Discount {

    /** Returns the amount after the discount. */
    Money apply(Money amount);

    default String describe() {
        return getClass().getSimpleName();
    }

    static Discount none() {
        return amount -> amount;
    }
}
