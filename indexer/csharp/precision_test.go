package csharp_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/csharp"
	"github.com/graphsnap/snap/schemas"
)

// resolvedCalls returns the resolved calls of g as `src -> dst:line
// (resolution) file:line`: the destination's line pins the overload.
func resolvedCalls(g *indexer.Graph) []string {
	byID := make(map[uint64]schemas.Node, len(g.Nodes))
	for _, n := range g.Nodes {
		byID[n.ID] = n
	}
	var out []string
	for _, e := range g.Edges {
		if e.Kind != schemas.EdgeCalls || e.Dst == 0 {
			continue
		}
		s, d := byID[e.Src], byID[e.Dst]
		sq, dq := strings.TrimPrefix(s.QualifiedName, "Shop."), strings.TrimPrefix(d.QualifiedName, "Shop.")
		out = append(out, fmt.Sprintf("%s -> %s:%d (%s) %s:%d", sq, dq, d.StartLine, e.Resolution, e.File, e.Line))
	}
	slices.Sort(out)
	return out
}

// TestPrecisionFixture asserts the exact set of resolved call edges of the
// fixture; every one was checked by hand against C#'s rules.
func TestPrecisionFixture(t *testing.T) {
	g, err := indexer.Index(context.Background(), "../../testdata/csharp/shop", indexer.Options{Languages: []indexer.Language{csharp.New()}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := resolvedCalls(g)
	want := strings.Split(strings.TrimSpace(fixtureCalls), "\n")
	for i := range want {
		want[i] = strings.TrimSpace(want[i])
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("resolved calls of the fixture differ:\ngot:\n%s", strings.Join(got, "\n"))
	}
}

// fixtureCalls are the resolved call edges of testdata/csharp/shop, the
// Shop. prefix of qualified names dropped. Three overloads of Put take two
// arguments: the arguments' types choose (Put(sku, 1), Put(first, 1),
// Put(second, "merged"), cart.Put("apple", 2)). In Util/Overloads.cs,
// Show(null) (string or IShape), Show(Make()) (an object, a type the Expr
// does not record) and Gen("s") (a generic method, which C# leaves for
// the non-generic one in a tie) are left out on purpose; Name("x") calls
// Name(object), the explicit implementation INamed.Name(string) being no
// member a call names.
const fixtureCalls = `
Orders.Cart.CheckoutAsync -> Orders.Order.Due:12 (receiver) src/Shop.Core/Orders/Cart.cs:48
Orders.Cart.CheckoutAsync -> Orders.Order.MarkPaid:43 (receiver) src/Shop.Core/Orders/Cart.cs:55
Orders.Cart.CheckoutAsync -> Orders.Receipt.For:17 (scope) src/Shop.Core/Orders/Cart.cs:56
Orders.Cart.CheckoutAsync -> Orders.Receipt.Print:22 (receiver) src/Shop.Core/Orders/Cart.cs:57
Orders.Cart.CheckoutAsync -> Payments.IPaymentGateway.ChargeAsync:8 (receiver) src/Shop.Core/Orders/Cart.cs:49
Orders.Cart.CheckoutAsync -> Util.ILogger.Error:6 (receiver) src/Shop.Core/Orders/Cart.cs:52
Orders.Cart.Merge -> Orders.Cart.Put:28 (scope) src/Shop.Core/Orders/Cart.cs:35
Orders.Cart.Merge -> Orders.Cart.Put:30 (scope) src/Shop.Core/Orders/Cart.cs:34
Orders.Cart.Put -> Orders.Cart.Put:22 (scope) src/Shop.Core/Orders/Cart.cs:20
Orders.Cart.Put -> Orders.Order.Add:27 (receiver) src/Shop.Core/Orders/Cart.cs:28
Orders.Cart.Put -> Orders.Order.Add:27 (receiver) src/Shop.Core/Orders/Cart.cs:30
Orders.Cart.Put -> Orders.Order.Add:36 (receiver) src/Shop.Core/Orders/Cart.cs:24
Orders.Cart.Put -> Util.ILogger.Info:5 (receiver) src/Shop.Core/Orders/Cart.cs:25
Orders.Cart.PutMany -> Orders.Cart.Put:20 (scope) src/Shop.Core/Orders/Cart.cs:42
Orders.Cart.Summary -> Orders.Order.Total:38 (receiver) src/Shop.Core/Orders/Cart.cs:64
Orders.Cart.Summary -> Util.Money.Format:10 (import) src/Shop.Core/Orders/Cart.cs:64
Orders.Order.Add -> Orders.Order.Add:27 (scope) src/Shop.Core/Orders/Order.cs:36
Orders.Order.ApplyDiscount -> Orders.Order.Total:38 (scope) src/Shop.Core/Orders/Order.Discounts.cs:9
Orders.Order.ApplyDiscount -> Util.Money.Round:8 (scope) src/Shop.Core/Orders/Order.Discounts.cs:9
Orders.Order.Due -> Orders.Order.Total:38 (scope) src/Shop.Core/Orders/Order.Discounts.cs:12
Orders.Order.Order -> Orders.Order.Order:13 (scope) src/Shop.Core/Orders/Order.cs:19
Orders.Receipt.For -> Orders.Receipt.Receipt:8 (scope) src/Shop.Core/Orders/Receipt.cs:19
Orders.Receipt.Print -> Orders.Order.Total:38 (receiver) src/Shop.Core/Orders/Receipt.cs:24
Orders.Receipt.Print -> Orders.Order.Total:38 (receiver) src/Shop.Core/Orders/Receipt.cs:25
Payments.CardGateway.CardGateway -> Payments.GatewayBase.GatewayBase:10 (scope) src/Shop.Core/Payments/Gateways.cs:21
Payments.CardGateway.ChargeAsync -> Payments.GatewayBase.Audit:16 (scope) src/Shop.Core/Payments/Gateways.cs:27
Payments.FakeGateway.ChargeAsync -> Payments.ChargeResult.Failed:18 (scope) src/Shop.Core/Payments/Gateways.cs:41
Payments.GatewayBase.Audit -> Util.ILogger.Info:5 (receiver) src/Shop.Core/Payments/Gateways.cs:16
Tests.CartTests.CheckoutPays -> Orders.Cart.CheckoutAsync:46 (receiver) tests/Shop.Tests/CartTests.cs:24
Tests.CartTests.CheckoutPays -> Orders.Order.ApplyDiscount:7 (receiver) tests/Shop.Tests/CartTests.cs:23
Tests.CartTests.CheckoutPays -> Tests.CartTests.Helper:30 (scope) tests/Shop.Tests/CartTests.cs:27
Tests.CartTests.PutAddsItems -> Orders.Cart.Put:22 (receiver) tests/Shop.Tests/CartTests.cs:15
Tests.CartTests.PutAddsItems -> Orders.Order.Total:38 (receiver) tests/Shop.Tests/CartTests.cs:16
Tests.CartTests.cart -> Orders.Cart.Cart:12 (import) tests/Shop.Tests/CartTests.cs:10
Util.ConsoleLogger.Error -> Util.ConsoleLogger.Write:14 (scope) src/Shop.Core/Util/Logging.cs:12
Util.ConsoleLogger.Info -> Util.ConsoleLogger.Write:14 (scope) src/Shop.Core/Util/Logging.cs:11
Util.Money.WithCurrency -> Util.Money.Format:10 (scope) src/Shop.Core/Util/Money.cs:15
Util.Overloads.Demo -> Util.Named.Name:15 (receiver) src/Shop.Core/Util/Overloads.cs:62
Util.Overloads.Demo -> Util.Overloads.Make:40 (scope) src/Shop.Core/Util/Overloads.cs:54
Util.Overloads.Demo -> Util.Overloads.Many:31 (scope) src/Shop.Core/Util/Overloads.cs:58
Util.Overloads.Demo -> Util.Overloads.Many:32 (scope) src/Shop.Core/Util/Overloads.cs:59
Util.Overloads.Demo -> Util.Overloads.Pick:28 (scope) src/Shop.Core/Util/Overloads.cs:56
Util.Overloads.Demo -> Util.Overloads.Pick:29 (scope) src/Shop.Core/Util/Overloads.cs:57
Util.Overloads.Demo -> Util.Overloads.Run:34 (scope) src/Shop.Core/Util/Overloads.cs:60
Util.Overloads.Demo -> Util.Overloads.Show:22 (scope) src/Shop.Core/Util/Overloads.cs:44
Util.Overloads.Demo -> Util.Overloads.Show:22 (scope) src/Shop.Core/Util/Overloads.cs:46
Util.Overloads.Demo -> Util.Overloads.Show:22 (scope) src/Shop.Core/Util/Overloads.cs:50
Util.Overloads.Demo -> Util.Overloads.Show:23 (scope) src/Shop.Core/Util/Overloads.cs:45
Util.Overloads.Demo -> Util.Overloads.Show:24 (scope) src/Shop.Core/Util/Overloads.cs:47
Util.Overloads.Demo -> Util.Overloads.Show:25 (scope) src/Shop.Core/Util/Overloads.cs:48
Util.Overloads.Demo -> Util.Overloads.Show:26 (scope) src/Shop.Core/Util/Overloads.cs:49
Util.Overloads.Demo -> Util.Overloads.Show:26 (scope) src/Shop.Core/Util/Overloads.cs:51
Util.Overloads.Demo -> Util.Overloads.Show:26 (scope) src/Shop.Core/Util/Overloads.cs:52
`
