package com.example.shop.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.shop.model.Category;
import com.example.shop.model.Item;
import com.example.shop.model.Money;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CartTest {
    private Cart cart;
    private final Item book = new Item("b-1", "Book", Money.euros(1200), Category.BOOKS);

    @BeforeEach
    void setUp() {
        cart = new Cart();
    }

    @Test
    void addMergesLines() {
        cart.add(book);
        cart.add(book, 2);
        assertEquals(1, cart.lines().size());
        assertEquals(Money.euros(3600), cart.total());
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 50})
    void percentDiscount(int percent) {
        cart.add(book);
        cart.apply(new PercentDiscount(percent));
        assertTrue(cart.total().compareTo(book.price()) < 0);
    }

    @Test
    void emptyCartIsEmpty() {
        assertTrue(new Cart().isEmpty());
    }
}
