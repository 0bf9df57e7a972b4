#include "shop/model.h"

#include "../clib/legacy.h"

namespace shop {

namespace {
int tax(int cents) { return cents / 10; }
} // namespace

Item::Item(std::string name, int cents) : name_(std::move(name)), cents_(cents) {}

int Item::price() const { return cents_ + tax(cents_); }

Order::Order() {}

Order *Order::make() { return new Order(); }

void Order::add(const Item &item) { add(item, 1); }

void Order::add(const Item &item, int quantity) {
	for (int i = 0; i < quantity; i++) {
		items_.push_back(item);
	}
	last_ = &items_.back();
	this->count();
}

int Order::price() const {
	int total = 0;
	for (const Item &it : items_) {
		total += it.price();
	}
	if (last_) {
		total += last_->price() - last_->price();
	}
	return round_price(total);
}

int Order::count() const { return static_cast<int>(items_.size()); }

int round_price(int cents) { return legacy_round(cents); }

} // namespace shop
