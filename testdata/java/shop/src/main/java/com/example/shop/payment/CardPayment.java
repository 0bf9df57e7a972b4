package com.example.shop.payment;

import com.example.shop.model.Money;
import java.util.UUID;

/** Pays by card. */
public class CardPayment implements PaymentMethod {
    private final String number;

    public CardPayment(String number) {
        this.number = number;
    }

    @Override
    public String charge(Money amount) throws PaymentException {
        if (!valid()) {
            throw new PaymentException("invalid card " + masked());
        }
        return "card-" + UUID.randomUUID();
    }

    boolean valid() {
        return number.length() == 16;
    }

    String masked() {
        return "****" + number.substring(12);
    }
}
