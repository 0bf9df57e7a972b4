#include "shop/model.h"

#define TEST(suite, name) void suite##_##name##_test()

TEST(OrderTest, Total) {
	shop::Order o;
	o.add(shop::Item("a", 10));
	if (o.price() != 11) {
		throw 1;
	}
}
