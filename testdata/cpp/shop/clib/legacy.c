#include "legacy.h"

static int down(int c) { return c - c % 5; }

int legacy_round(int cents) {
	return down(cents + 2);
}
