package c_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// resolvedCalls is every calls and instantiates edge the resolver makes
// in the C shop fixture, each checked by hand against the source (and
// the fixture compiles with gcc): `site caller -kind->
// callee@its file:line`. The test fails on any edge more or less.
var resolvedCalls = []string{
	"src/item.c:10 check -calls-> CENTS@include/shop/item.h:7",
	"src/item.c:10 check -calls-> clamp@include/shop/util.h:4",
	"src/item.c:16 item_new -calls-> check@src/item.c:9",
	"src/main.c:12 main -calls-> order_total@src/order.c:24",
	"src/main.c:13 main -calls-> item_free@src/item.c:26",
	"src/main.c:7 main -calls-> order_new@src/order.c:10",
	"src/main.c:8 main -calls-> item_new@src/item.c:13",
	"src/main.c:9 main -calls-> order_add@src/order.c:15",
	"src/order.c:16 order_add -calls-> check@src/order.c:6",
	"src/order.c:17 order_add -calls-> order_log@src/order.c:35",
	"src/order.c:27 order_total -calls-> item_price@src/item.c:22",
	"tests/test_order.c:11 main -calls-> test_total@tests/test_order.c:4",
	"tests/test_order.c:5 test_total -calls-> order_new@src/order.c:10",
	"tests/test_order.c:6 test_total -calls-> item_new@src/item.c:13",
	"tests/test_order.c:6 test_total -calls-> order_add@src/order.c:15",
	"tests/test_order.c:7 test_total -calls-> order_total@src/order.c:24",
}

func TestPrecision(t *testing.T) {
	languagetest.Precision(t, "../../testdata/c/shop", resolvedCalls, cpp.New(), c.New())
}
