#include <stdlib.h>
#include "shop/item.h"
#include "shop/util.h"

int items_made = 0;
static const int min_price = 1;

/* check validates a price; every file may have its own. */
static int check(int price) {
	return clamp(price, min_price, CENTS(1000));
}

item_t *item_new(const char *name, int price) {
	item_t *it = malloc(sizeof *it);
	it->name = name;
	it->price = check(price);
	it->cat = CAT_FOOD;
	items_made++;
	return it;
}

int item_price(const item_t *it) {
	return it->price;
}

void item_free(item_t *it) {
	free(it);
}
