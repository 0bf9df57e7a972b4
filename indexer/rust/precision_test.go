package rust_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/rust"
	"github.com/graphsnap/snap/schemas"
)

// resolvedCalls is every calls and instantiates edge the resolver may make
// in the shop fixture, each checked by hand against the source (and the
// fixture against rustc): `site caller -kind-> callee@its file:line`. The
// test fails on any edge more or less, so that a change that links one
// call more must be reviewed here, and a wrong link shows at once.
var resolvedCalls = []string{
	"src/cli.rs:4 shop::cli::show -calls-> shop::store::memory::MemoryStore::count@src/store/memory.rs:17",
	"src/cli.rs:5 shop::cli::show -calls-> shop::cli::print_count@src/cli.rs:8",
	"src/lib.rs:32 shop::open_order -calls-> shop::models::order::Order::new@src/models/order.rs:32",
	"src/lib.rs:33 shop::open_order -calls-> shop::models::order::Order::add@src/models/order.rs:36",
	"src/lib.rs:39 shop::quick_total -calls-> shop::models::item::Item::new@src/models/item.rs:13",
	"src/lib.rs:40 shop::quick_total -calls-> shop::models::order::Order::total@src/models/order.rs:41",
	"src/lib.rs:40 shop::quick_total -calls-> shop::open_order@src/lib.rs:31",
	"src/lib.rs:41 shop::quick_total -calls-> shop::util::round@src/util.rs:2",
	"src/lib.rs:50 shop::tests::totals_one_item -calls-> shop::models::item::Item::new@src/models/item.rs:13",
	"src/lib.rs:50 shop::tests::totals_one_item -calls-> shop::open_order@src/lib.rs:31",
	"src/lib.rs:51 shop::tests::totals_one_item -calls-> shop::models::order::Order::total@src/models/order.rs:41",
	"src/lib.rs:52 shop::tests::totals_one_item -calls-> shop::quick_total@src/lib.rs:38",
	"src/main.rs:10 shop::main -calls-> shop::store::memory::MemoryStore::new@src/store/memory.rs:13",
	"src/main.rs:11 shop::main -calls-> shop::pricing::Discount::new@src/pricing.rs:48",
	"src/main.rs:12 shop::main -calls-> shop::pricing::total_with@src/pricing.rs:54",
	"src/main.rs:13 shop::main -calls-> shop::log_event!@src/lib.rs:15",
	"src/main.rs:14 shop::main -calls-> shop::models::order::Order::pay@src/models/order.rs:49",
	"src/main.rs:14 shop::main -calls-> shop::models::order::Status::label@src/models/order.rs:15",
	"src/main.rs:14 shop::main -calls-> shop::pricing::Regular::name@src/pricing.rs:31",
	"src/main.rs:15 shop::main -calls-> shop::store::memory::MemoryStore::put@src/store/memory.rs:44",
	"src/main.rs:16 shop::main -calls-> shop::cli::show@src/cli.rs:3",
	"src/main.rs:8 shop::main -calls-> shop::models::order::Order::new@src/models/order.rs:32",
	"src/main.rs:9 shop::main -calls-> shop::models::item::Item::new@src/models/item.rs:13",
	"src/main.rs:9 shop::main -calls-> shop::models::order::Order::add@src/models/order.rs:36",
	"src/models/item.rs:14 shop::models::item::Item::new -instantiates-> shop::models::item::Item@src/models/item.rs:2",
	"src/models/item.rs:22 shop::models::item::Item::cost -calls-> shop::models::item::Item::price@src/models/item.rs:17",
	"src/models/item.rs:22 shop::models::item::Item::cost -instantiates-> shop::models::item::Money@src/models/item.rs:9",
	"src/models/order.rs:33 shop::models::order::Order::new -instantiates-> shop::models::order::Order@src/models/order.rs:25",
	"src/models/order.rs:44 shop::models::order::Order::total -calls-> shop::models::item::Item::price@src/models/item.rs:17",
	"src/models/order.rs:50 shop::models::order::Order::pay -calls-> shop::models::order::Order::total@src/models/order.rs:41",
	"src/models/order.rs:51 shop::models::order::Order::pay -instantiates-> shop::models::order::Status::Paid@src/models/order.rs:10",
	"src/models/order.rs:52 shop::models::order::Order::pay -calls-> shop::log_event!@src/lib.rs:15",
	"src/models/order.rs:57 shop::models::order::Order::cheapest -calls-> shop::models::item::Item::price@src/models/item.rs:17",
	"src/models/order.rs:61 shop::models::order::Order::cheapest_price -calls-> shop::models::order::Order::cheapest@src/models/order.rs:56",
	"src/models/order.rs:62 shop::models::order::Order::cheapest_price -calls-> shop::models::item::Item::price@src/models/item.rs:17",
	"src/models/order.rs:75 shop::models::order::Order::cancel -instantiates-> shop::models::order::Status::Cancelled@src/models/order.rs:11",
	"src/models/order.rs:81 shop::models::order::Order::fmt -calls-> shop::models::order::Status::label@src/models/order.rs:15",
	"src/pricing.rs:28 shop::pricing::Regular::price_of -calls-> shop::models::order::Order::total@src/models/order.rs:41",
	"src/pricing.rs:38 shop::pricing::Discount::price_of -calls-> shop::pricing::Regular::price_of@src/pricing.rs:27",
	"src/pricing.rs:39 shop::pricing::Discount::price_of -calls-> shop::util::round@src/util.rs:2",
	"src/pricing.rs:49 shop::pricing::Discount::new -instantiates-> shop::pricing::Discount@src/pricing.rs:22",
	"src/pricing.rs:68 shop::pricing::describe_discount -calls-> shop::pricing::Discount::new@src/pricing.rs:48",
	"src/pricing.rs:69 shop::pricing::describe_discount -calls-> shop::pricing::Pricing::describe@src/pricing.rs:13",
	"src/pricing.rs:77 shop::pricing::seasonal::current -instantiates-> shop::pricing::Discount@src/pricing.rs:22",
	"src/pricing.rs:81 shop::pricing::seasonal::summer -calls-> shop::pricing::seasonal::current@src/pricing.rs:76",
	"src/pricing.rs:82 shop::pricing::seasonal::summer -calls-> shop::pricing::seasonal::current@src/pricing.rs:76",
	"src/report.rs:26 shop::report::print_report -calls-> shop::report::Audit::report@src/report.rs:6",
	"src/report.rs:27 shop::report::print_report -calls-> shop::report::Order::report@src/report.rs:20",
	"src/store/memory.rs:14 shop::store::memory::MemoryStore::new -instantiates-> shop::store::memory::MemoryStore@src/store/memory.rs:7",
	"src/store/memory.rs:23 shop::store::memory::MemoryStore::total_of -calls-> shop::models::order::Order::total@src/models/order.rs:41",
	"src/store/memory.rs:29 shop::store::memory::MemoryStore::first_total -calls-> shop::models::order::Order::total@src/models/order.rs:41",
	"tests/orders.rs:6 orders::pays_an_order -calls-> shop::models::order::Order::new@src/models/order.rs:32",
	"tests/orders.rs:7 orders::pays_an_order -calls-> shop::models::item::Item::new@src/models/item.rs:13",
	"tests/orders.rs:7 orders::pays_an_order -calls-> shop::models::order::Order::add@src/models/order.rs:36",
	"tests/orders.rs:8 orders::pays_an_order -calls-> shop::models::order::Order::pay@src/models/order.rs:49",
	"tests/orders.rs:8 orders::pays_an_order -calls-> shop::models::order::Status::label@src/models/order.rs:15",
}

// TestResolvedCalls compares the resolved calls and instantiates edges of
// the fixture with the reviewed list, destination lines included (two
// methods of the fixture share the name shop::report::Order::report).
func TestResolvedCalls(t *testing.T) {
	g, err := indexer.Index(context.Background(), "../../testdata/rust/shop", indexer.Options{Languages: []indexer.Language{rust.New()}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	for i := range g.Nodes {
		byID[g.Nodes[i].ID] = &g.Nodes[i]
	}
	var got []string
	for _, e := range g.Edges {
		if e.Dst == 0 || e.Kind != schemas.EdgeCalls && e.Kind != schemas.EdgeInstantiates {
			continue
		}
		s, d := byID[e.Src], byID[e.Dst]
		got = append(got, fmt.Sprintf("%s:%d %s -%s-> %s@%s:%d", e.File, e.Line, s.QualifiedName, e.Kind, d.QualifiedName, d.File, d.StartLine))
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(resolvedCalls))
	for _, w := range want {
		if _, ok := slices.BinarySearch(got, w); !ok {
			t.Errorf("missing: %s", w)
		}
	}
	for _, g := range got {
		if _, ok := slices.BinarySearch(want, g); !ok {
			t.Errorf("not reviewed: %s", g)
		}
	}
}
