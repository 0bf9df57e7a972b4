#ifndef SHOP_ITEM_H
#define SHOP_ITEM_H

#include <stddef.h>

#define MAX_ITEMS 16
#define CENTS(x) ((x) * 100)

/* The category of an item. */
enum category { CAT_FOOD, CAT_TOOL = 5 };

/** An item on sale. */
struct item {
	const char *name;
	int price;
	enum category cat;
};

typedef struct item item_t;

typedef struct {
	int amount;
} money;

/* item_new makes an item. */
item_t *item_new(const char *name, int price);
int item_price(const item_t *it);
void item_free(item_t *it);

extern int items_made;

#endif
