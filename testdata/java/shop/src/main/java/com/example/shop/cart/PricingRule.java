package com.example.shop.cart;

import com.example.shop.model.Money;

/** A rule that adjusts a price; subclasses say when it applies. */
public abstract class PricingRule {
    private final String name;

    protected PricingRule(String name) {
        this.name = name;
    }

    /** Whether the rule applies to a cart. */
    protected abstract boolean appliesTo(Cart cart);

    protected abstract Money adjust(Money amount);

    /** Applies the rule when it should. */
    public final Money applyTo(Cart cart, Money amount) {
        return appliesTo(cart) ? adjust(amount) : amount;
    }

    public String name() {
        return name;
    }
}
