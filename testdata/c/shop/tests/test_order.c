#include <assert.h>
#include "shop/order.h"

static void test_total(void) {
	struct order *o = order_new();
	order_add(o, item_new("pear", 2));
	assert(order_total(o) == 2);
}

int main(void) {
	test_total();
	return 0;
}
