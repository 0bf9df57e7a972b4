#ifndef SHOP_UTIL_H
#define SHOP_UTIL_H

static inline int clamp(int v, int lo, int hi) {
	return v < lo ? lo : v > hi ? hi : v;
}

#endif
