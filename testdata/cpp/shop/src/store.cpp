#include "store.hpp"

namespace shop::store {

int OrderStore::total() {
	int sum = size();
	Order *o = Order::make();
	sum += o->price();
	return sum;
}

} // namespace shop::store
