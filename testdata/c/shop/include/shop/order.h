#ifndef SHOP_ORDER_H
#define SHOP_ORDER_H

#include "item.h"

typedef int (*discount_fn)(int total);

struct order {
	item_t *items[MAX_ITEMS];
	size_t count;
	discount_fn discount;
	int (*round)(int);
};

struct order *order_new(void);
int order_add(struct order *o, item_t *it);
int order_total(const struct order *o);
int order_log(const char *fmt, ...);

#endif
