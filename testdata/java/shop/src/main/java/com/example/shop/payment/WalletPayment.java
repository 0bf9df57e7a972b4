package com.example.shop.payment;

import com.example.shop.model.Money;

/** Pays from a prepaid wallet. */
public class WalletPayment implements PaymentMethod {
    private Money balance;

    public WalletPayment(Money balance) {
        this.balance = balance;
    }

    @Override
    public String charge(Money amount) throws PaymentException {
        if (balance.compareTo(amount) < 0) {
            throw new PaymentException("insufficient funds", null);
        }
        balance = new Money(balance.cents() - amount.cents(), balance.currency());
        return "wallet-" + balance;
    }

    @Override
    public boolean supports(String currency) {
        return balance.currency().equals(currency);
    }
}
