package com.example.shop.cart;

import com.example.shop.model.Item;
import com.example.shop.model.Money;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A shopping cart: lines of items with quantities.
 */
public class Cart {

    /** One item and how many of it. */
    public class Line {
        private final Item item;
        private int qty;

        Line(Item item, int qty) {
            this.item = item;
            this.qty = qty;
        }

        public Money total() {
            return item.priceFor(qty);
        }

        /** Removes this line from its cart. */
        public void remove() {
            lines.remove(this);
            touch();
        }
    }

    /** What a cart amounts to. */
    public static class Summary {
        final int count;
        final Money total;

        Summary(int count, Money total) {
            this.count = count;
            this.total = total;
        }

        @Override
        public String toString() {
            return count + " items, " + total;
        }
    }

    private final List<Line> lines = new ArrayList<>();
    private Discount discount = Discount.none();
    private int version;

    /** Adds one of item. */
    public Line add(Item item) {
        return add(item, 1);
    }

    /** Adds qty of item. */
    public Line add(Item item, int qty) {
        for (Line line : lines) {
            if (line.item.sku().equals(item.sku())) {
                line.qty += qty;
                touch();
                return line;
            }
        }
        Line line = new Line(item, qty);
        lines.add(line);
        touch();
        return line;
    }

    public void apply(Discount discount) {
        this.discount = discount;
        touch();
    }

    public Money total() {
        Money sum = Money.euros(0);
        for (Line line : lines) {
            sum = sum.plus(line.total());
        }
        return discount.apply(sum);
    }

    public Summary summary() {
        int count = lines.stream().mapToInt(l -> l.qty).sum();
        return new Summary(count, total());
    }

    public List<Line> lines() {
        return Collections.unmodifiableList(lines);
    }

    public boolean isEmpty() {
        return lines.isEmpty();
    }

    private void touch() {
        version++;
    }
}
