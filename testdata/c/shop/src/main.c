#include <stdio.h>
#include <shop/order.h>

static int half(int total) { return total / 2; }

int main(void) {
	struct order *o = order_new();
	item_t *apple = item_new("apple", 3);
	order_add(o, apple);
	o->discount = half;
	discount_fn d = half;
	printf("%d %d\n", order_total(o), d(4));
	item_free(apple);
	return undeclared_function(1);
}
