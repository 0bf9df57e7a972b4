// Overloads of one arity, told apart by the types of the arguments.
#include <string>

#include "shop/model.h"

namespace shop::convert {

int scale(int v) { return v; }
int scale(double v) { return static_cast<int>(v); }
int scale(const char *s) { return s[0]; }
int scale(Priced *p) { return p->price(); }

void tag(long v) {}
void tag(std::string s) {}

void mark(int a, double b) {}
void mark(double a, int b) {}

void pick(void *p) {}
void pick(Order *o) {}

void wide(double v, int n = 1) {}
void wide(Item *it) {}

int demo(Order *order, short s, float f, const Item &item) {
	int n = 3;
	scale(1);                   // int: exact
	scale(2.5);                 // double: exact
	scale(2.5f);                // float promotes to double
	scale('c');                 // char promotes to int
	scale(s);                   // short promotes to int
	scale(f);                   // float promotes to double
	scale(n);                   // a local int
	scale("sku");               // a string literal
	scale(order);               // Order* converts to Priced*
	tag(n);                     // long, but std::string is outside: unresolved
	tag("x");                   // only std::string takes a string literal
	mark(1, 2.0);               // exact twice
	pick(order);                // Order* exactly
	pick(&n);                   // int* only to void*
	wide(1.0);                  // a default argument
	wide(static_cast<double>(n)); // a cast
	wide(new Item("x", 1));     // new T is a pointer
	return scale(item.price());
}

template <class T> int probe(int) { return 1; }
template <class T> int probe(long) { return 2; }

void show(int v) {}
template <class T> void show(T v) {}

int templates() {
	show(1);                    // the non-template wins a tie: unresolved
	return probe<Item>(0);      // templates decide nothing: unresolved
}

} // namespace shop::convert
