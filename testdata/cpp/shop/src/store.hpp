#pragma once

#include <map>
#include <string>

#include "shop/model.h"

namespace shop::store {

template <typename T>
class Repo {
public:
	void put(const std::string &key, T value) { items_[key] = value; }
	T *get(const std::string &key);
	int size() const { return static_cast<int>(items_.size()); }

private:
	std::map<std::string, T> items_;
};

class OrderStore : public Repo<Order *> {
public:
	int total();
};

} // namespace shop::store
