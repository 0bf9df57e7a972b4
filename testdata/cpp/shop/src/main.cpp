#include <iostream>

#include "shop/model.h"
#include "store.hpp"

using namespace shop;

static void report(const Priced &p) {
	std::cout << p.price() << std::endl;
}

int main() {
	auto order = std::make_unique<Order>();
	Item apple("apple", 120);
	order->add(apple);
	order->add(Item("pear", 80), 2);
	report(*order);
	Priced *p = order.get();
	p->doubled();
	store::OrderStore st;
	st.put("a", order.get());
	st.total();
	auto extra = Item("fig", 10);
	extra.name();
	int (*fp)(int) = round_price;
	return fp(shop::round_price(apple.price())) > 0 ? 0 : 1;
}
