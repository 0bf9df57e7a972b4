package com.example.shop.payment;

import static com.example.shop.util.Strings.pad;
import static java.util.Objects.requireNonNull;

import com.example.shop.cart.Cart;
import com.example.shop.model.Money;
import com.example.shop.util.Audited;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/** Takes payments for carts. */
public class PaymentService {
    private static final Logger LOG = Logger.getLogger(PaymentService.class.getName());

    private final List<PaymentMethod> methods = new ArrayList<>();

    public void register(PaymentMethod method) {
        methods.add(requireNonNull(method));
    }

    /** Pays for a cart with the first method that works. */
    @Audited("checkout")
    public String checkout(Cart cart) {
        Money total = cart.total();
        for (PaymentMethod m : methods) {
            if (!m.supports(total.currency())) {
                continue;
            }
            try {
                String receipt = m.charge(total);
                log(receipt, total);
                return receipt;
            } catch (PaymentException e) {
                log(e);
            }
        }
        return null;
    }

    void log(String receipt, Money total) {
        LOG.info(pad(receipt, 20) + total);
    }

    void log(PaymentException e) {
        LOG.warning(e.getMessage());
    }

    void log(Object what) {
        LOG.fine(String.valueOf(what));
    }

    /** Reports a problem; which overload of log is meant depends on its type. */
    void report(Object problem) {
        log(problem);
    }
}
