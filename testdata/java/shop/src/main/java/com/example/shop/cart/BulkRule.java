package com.example.shop.cart;

import com.example.shop.model.Money;

/** Ten percent off carts of ten lines or more. */
class BulkRule extends PricingRule {
    private final Discount discount = new PercentDiscount(10);

    BulkRule() {
        super("bulk");
    }

    @Override
    protected boolean appliesTo(Cart cart) {
        return cart.lines().size() >= 10;
    }

    @Override
    protected Money adjust(Money amount) {
        return discount.apply(amount);
    }
}
