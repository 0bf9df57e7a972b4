# The cart, kept in an array.

source ./log.sh

declare -a CART=()

cart_add() {
  local item=$1 price=$2
  [[ $price =~ ^[0-9]+$ ]] || die "bad price: $price"
  CART+=("$item:$price")
  log_info "added $item"
}

cart_total() {
  local sum=0 entry
  for entry in "${CART[@]}"; do
    sum=$((sum + ${entry##*:}))
  done
  echo "$sum"
}
