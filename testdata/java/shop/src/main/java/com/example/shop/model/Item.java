package com.example.shop.model;

/** Something the shop sells. */
public record Item(String sku, String name, Money price, Category category) {

    public Item {
        if (sku.isBlank()) {
            throw new IllegalArgumentException("empty sku");
        }
    }

    /** The price of qty of this item. */
    public Money priceFor(int qty) {
        return price.times(qty);
    }

    public boolean isTaxed() {
        return category.taxRate() > 0;
    }
}
