#pragma once

#include <memory>
#include <string>
#include <vector>

namespace shop {

/// Priced is anything with a price.
class Priced {
public:
	virtual ~Priced() = default;
	virtual int price() const = 0;
	int doubled() const { return price() * 2; }
};

/// Item is one product.
class Item : public Priced {
public:
	Item(std::string name, int cents);
	int price() const override;
	const std::string &name() const { return name_; }

private:
	std::string name_;
	int cents_;
};

enum class Status { Open, Paid };

class Order : public Priced {
public:
	Order();
	static Order *make();
	void add(const Item &item);
	void add(const Item &item, int quantity);
	int price() const override;
	Status status = Status::Open;

protected:
	int count() const;

private:
	std::vector<Item> items_;
	Item *last_ = nullptr;
};

using OrderPtr = std::unique_ptr<Order>;

int round_price(int cents);

} // namespace shop
