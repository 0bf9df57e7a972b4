package cpp_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// resolvedCalls is every calls and instantiates edge the resolver makes
// in the C++ shop fixture, each checked by hand against the source (and
// the fixture compiles with g++ -std=c++17): `site caller -kind->
// callee@its file:line`. The test fails on any edge more or less.
var resolvedCalls = []string{
	"clib/legacy.c:6 legacy_round -calls-> down@clib/legacy.c:3",
	"include/shop/model.h:14 shop::Priced::doubled -calls-> shop::Priced::price@include/shop/model.h:13",
	"src/convert.cpp:11 shop::convert::scale -calls-> shop::Priced::price@include/shop/model.h:13",
	"src/convert.cpp:27 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:8",
	"src/convert.cpp:28 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:9",
	"src/convert.cpp:29 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:9",
	"src/convert.cpp:30 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:8",
	"src/convert.cpp:31 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:8",
	"src/convert.cpp:32 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:9",
	"src/convert.cpp:33 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:8",
	"src/convert.cpp:34 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:10",
	"src/convert.cpp:35 shop::convert::demo -calls-> shop::convert::scale@src/convert.cpp:11",
	"src/convert.cpp:37 shop::convert::demo -calls-> shop::convert::tag@src/convert.cpp:14",
	"src/convert.cpp:38 shop::convert::demo -calls-> shop::convert::mark@src/convert.cpp:16",
	"src/convert.cpp:39 shop::convert::demo -calls-> shop::convert::pick@src/convert.cpp:20",
	"src/convert.cpp:40 shop::convert::demo -calls-> shop::convert::pick@src/convert.cpp:19",
	"src/convert.cpp:41 shop::convert::demo -calls-> shop::convert::wide@src/convert.cpp:22",
	"src/convert.cpp:42 shop::convert::demo -calls-> shop::convert::wide@src/convert.cpp:22",
	"src/convert.cpp:43 shop::convert::demo -calls-> shop::convert::wide@src/convert.cpp:23",
	"src/convert.cpp:43 shop::convert::demo -instantiates-> shop::Item@include/shop/model.h:18",
	"src/convert.cpp:44 shop::convert::demo -calls-> shop::Item::price@src/model.cpp:13",
	"src/main.cpp:14 main -instantiates-> shop::Item@include/shop/model.h:18",
	"src/main.cpp:15 main -calls-> shop::Order::add@src/model.cpp:19",
	"src/main.cpp:16 main -calls-> shop::Item::Item@src/model.cpp:11",
	"src/main.cpp:16 main -calls-> shop::Order::add@src/model.cpp:21",
	"src/main.cpp:16 main -instantiates-> shop::Item@include/shop/model.h:18",
	"src/main.cpp:17 main -calls-> report@src/main.cpp:8",
	"src/main.cpp:19 main -calls-> shop::Priced::doubled@include/shop/model.h:14",
	"src/main.cpp:21 main -calls-> shop::store::Repo::put@src/store.hpp:13",
	"src/main.cpp:22 main -calls-> shop::store::OrderStore::total@src/store.cpp:5",
	"src/main.cpp:23 main -calls-> shop::Item::Item@src/model.cpp:11",
	"src/main.cpp:23 main -instantiates-> shop::Item@include/shop/model.h:18",
	"src/main.cpp:24 main -calls-> shop::Item::name@include/shop/model.h:22",
	"src/main.cpp:26 main -calls-> shop::Item::price@src/model.cpp:13",
	"src/main.cpp:26 main -calls-> shop::round_price@src/model.cpp:42",
	"src/main.cpp:9 report -calls-> shop::Priced::price@include/shop/model.h:13",
	"src/model.cpp:13 shop::Item::price -calls-> shop::tax@src/model.cpp:8",
	"src/model.cpp:17 shop::Order::make -instantiates-> shop::Order@include/shop/model.h:31",
	"src/model.cpp:19 shop::Order::add -calls-> shop::Order::add@src/model.cpp:21",
	"src/model.cpp:26 shop::Order::add -calls-> shop::Order::count@src/model.cpp:40",
	"src/model.cpp:32 shop::Order::price -calls-> shop::Item::price@src/model.cpp:13",
	"src/model.cpp:35 shop::Order::price -calls-> shop::Item::price@src/model.cpp:13",
	"src/model.cpp:35 shop::Order::price -calls-> shop::Item::price@src/model.cpp:13",
	"src/model.cpp:37 shop::Order::price -calls-> shop::round_price@src/model.cpp:42",
	"src/model.cpp:42 shop::round_price -calls-> legacy_round@clib/legacy.c:5",
	"src/store.cpp:6 shop::store::OrderStore::total -calls-> shop::store::Repo::size@src/store.hpp:15",
	"src/store.cpp:7 shop::store::OrderStore::total -calls-> shop::Order::make@src/model.cpp:17",
	"src/store.cpp:8 shop::store::OrderStore::total -calls-> shop::Order::price@src/model.cpp:29",
	"tests/order_test.cc:7 OrderTest.Total -calls-> shop::Item::Item@src/model.cpp:11",
	"tests/order_test.cc:7 OrderTest.Total -calls-> shop::Order::add@src/model.cpp:19",
	"tests/order_test.cc:7 OrderTest.Total -instantiates-> shop::Item@include/shop/model.h:18",
	"tests/order_test.cc:8 OrderTest.Total -calls-> shop::Order::price@src/model.cpp:29",
}

func TestPrecision(t *testing.T) {
	languagetest.Precision(t, "../../testdata/cpp/shop", resolvedCalls, cpp.New(), c.New())
}
