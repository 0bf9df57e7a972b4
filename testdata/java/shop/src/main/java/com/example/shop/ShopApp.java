package com.example.shop;

import com.example.shop.cart.*;
import com.example.shop.model.Category;
import com.example.shop.model.Item;
import com.example.shop.model.Money;
import com.example.shop.payment.CardPayment;
import com.example.shop.payment.PaymentMethod;
import com.example.shop.payment.PaymentService;
import com.example.shop.payment.WalletPayment;
import java.util.List;

/** Runs a sample checkout. */
public class ShopApp {

    private final PaymentService payments = new PaymentService();

    public static void main(String[] args) {
        ShopApp app = new ShopApp();
        var cart = app.fill(new Cart());
        cart.apply(new PercentDiscount(10));
        System.out.println(app.checkout(cart));
    }

    Cart fill(Cart cart) {
        List<Item> items = List.of(
                new Item("b-1", "Book", Money.euros(1200), Category.BOOKS),
                new Item("f-1", "Bread", Money.euros(250), Category.FOOD));
        items.forEach(cart::add);
        items.stream().map(Item::name).forEach(name -> System.out.println(com.example.shop.util.Strings.pad(name, 12)));
        return cart;
    }

    String checkout(Cart cart) {
        payments.register(new CardPayment("4111111111111111"));
        payments.register(new WalletPayment(Money.euros(5000)));
        payments.register(new PaymentMethod() {
            @Override
            public String charge(Money amount) {
                return "free-" + describe(amount);
            }

            private String describe(Money amount) {
                return amount.toString();
            }
        });
        class Printer {
            void print(Cart.Summary s) {
                System.out.println(s);
            }
        }
        new Printer().print(cart.summary());
        return payments.checkout(cart);
    }
}
