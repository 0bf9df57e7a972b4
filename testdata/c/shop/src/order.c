#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "shop/order.h"

static int check(struct order *o) {
	return o->count < MAX_ITEMS;
}

struct order *order_new(void) {
	struct order *o = calloc(1, sizeof *o);
	return o;
}

int order_add(struct order *o, item_t *it) {
	if (!check(o)) {
		order_log("full: %s", it->name);
		return -1;
	}
	o->items[o->count++] = it;
	return 0;
}

int order_total(const struct order *o) {
	int total = 0;
	for (size_t i = 0; i < o->count; i++) {
		total += item_price(o->items[i]);
	}
	if (o->discount) {
		total = o->discount(total);
	}
	return o->round ? o->round(total) : total;
}

int order_log(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int n = vfprintf(stderr, fmt, ap);
	va_end(ap);
	return n;
}
