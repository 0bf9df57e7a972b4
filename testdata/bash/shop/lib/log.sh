# Logging helpers.

LOG_FILE=${LOG_FILE:-/tmp/shop.log}

# Writes an info line.
log_info() {
  printf '%s INFO %s\n' "$(date +%T)" "$*" >&2
}

die() {
  log_info "fatal: $*"
  exit 1
}
