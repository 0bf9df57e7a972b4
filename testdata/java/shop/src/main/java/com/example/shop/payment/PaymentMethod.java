package com.example.shop.payment;

import com.example.shop.model.Money;

/** A way to pay. */
public interface PaymentMethod {
    /** Charges amount; returns a receipt id. */
    String charge(Money amount) throws PaymentException;

    default boolean supports(String currency) {
        return "EUR".equals(currency);
    }
}
