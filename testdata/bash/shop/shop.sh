#!/usr/bin/env bash
# The shop's command line.

set -euo pipefail

SHOP_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export SHOP_ENV=production
readonly SHOP_VERSION=1.2.0
declare -r CURRENCY=EUR
declare -x SHOP_USER=admin
orders=0

source "$SHOP_DIR/lib/log.sh"
. "${BASH_SOURCE%/*}/lib/cart.sh"
source "$PLUGIN_DIR/plugin.sh"

# Prints how to use the shop.
usage() {
  echo "usage: shop.sh add ITEM PRICE | total"
}

function main {
  case "${1:-}" in
    add)
      cart_add "$2" "$3" || die "cannot add"
      orders=$((orders + 1))
      ;;
    total) cart_total | tee -a "$LOG_FILE" ;;
    *) usage; exit 1 ;;
  esac
  for item in "${CART[@]}"; do
    log_info "in cart: $item"
  done
  grep -c . /dev/null >/dev/null || true
  undefined_helper
}

main "$@"
