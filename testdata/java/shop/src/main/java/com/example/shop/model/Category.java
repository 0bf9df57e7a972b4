package com.example.shop.model;

/** What an item is, for taxes. */
public enum Category {
    FOOD(5),
    BOOKS(0),
    ELECTRONICS(20) {
        @Override
        public String label() {
            return "Electronics (" + rateText() + ")";
        }
    };

    private final int taxRate;

    Category(int taxRate) {
        this.taxRate = taxRate;
    }

    public int taxRate() {
        return taxRate;
    }

    public String label() {
        return name().charAt(0) + name().substring(1).toLowerCase();
    }

    String rateText() {
        return taxRate + "%";
    }

    public static Category parse(String s) {
        return valueOf(s.trim().toUpperCase());
    }
}
