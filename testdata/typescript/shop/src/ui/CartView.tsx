import React, { useState } from "react";
import Button from "./Button";
import { Cart } from "@/models";
import formatPrice from "@/util/format";

type Props = { cart: Cart; onCheckout: () => void };

function Row({ name, cents }: { name: string; cents: number }) {
  return (
    <li>
      {name}: {formatPrice(cents)}
    </li>
  );
}

/** Shows a cart and a checkout button. */
export function CartView({ cart, onCheckout }: Props) {
  const [open, setOpen] = useState(false);
  const toggle = () => setOpen(!open);
  return (
    <div>
      <Row name="total" cents={cart.total()} />
      <Button label={open ? "Hide" : "Show"} onClick={toggle} />
      <Button label="Checkout" onClick={onCheckout} />
      <React.Fragment />
    </div>
  );
}
