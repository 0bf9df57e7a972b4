#!/bin/bash
. "$(dirname "$0")/../lib/cart.sh"

test_total_sums_prices() {
  cart_add apple 3
  cart_add pear 4
  [ "$(cart_total)" = 7 ]
}

test_total_sums_prices && echo ok
