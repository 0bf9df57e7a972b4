package com.example.shop.model;

import java.util.Objects;

/**
 * An amount of money in the smallest unit of its currency.
 */
public record Money(long cents, String currency) implements Comparable<Money> {

    /** The zero amount in euros. */
    public static final Money ZERO = new Money(0, "EUR");

    public Money {
        Objects.requireNonNull(currency, "currency");
        if (cents < 0) {
            throw new IllegalArgumentException("negative amount: " + cents);
        }
    }

    /** Makes an amount in euros. */
    public static Money euros(long cents) {
        return new Money(cents, "EUR");
    }

    public Money plus(Money other) {
        requireSameCurrency(other);
        return new Money(cents + other.cents(), currency);
    }

    public Money times(int factor) {
        return new Money(cents * factor, currency);
    }

    private void requireSameCurrency(Money other) {
        if (!currency.equals(other.currency())) {
            throw new IllegalArgumentException(currency + " != " + other.currency());
        }
    }

    @Override
    public int compareTo(Money other) {
        requireSameCurrency(other);
        return Long.compare(cents, other.cents);
    }

    @Override
    public String toString() {
        return String.format("%d.%02d %s", cents / 100, cents % 100, currency);
    }
}
