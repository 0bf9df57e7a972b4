package typescript_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/typescript"
	"github.com/graphsnap/snap/schemas"
)

// TestPrecisionFixture checks the exact set of calls and instantiates
// edges the resolver makes over the fixture, each checked by hand against
// the sources: one more is a guess, one less a regression.
func TestPrecisionFixture(t *testing.T) {
	want := []string{
		"lib/logger -calls-> lib/logger.Logger.constructor lib/logger.js:22",
		"lib/logger -instantiates-> lib/logger.Logger lib/logger.js:22",
		"lib/logger.Logger.info -calls-> lib/logger.Logger.write lib/logger.js:9",
		"lib/logger.Logger.warn -calls-> lib/logger.Logger.write lib/logger.js:13",
		"src/__tests__/cart.test -calls-> src/__tests__/cart.test.fixture src/__tests__/cart.test.ts:16",
		"src/__tests__/cart.test -calls-> src/models/cart.Cart.add src/__tests__/cart.test.ts:6",
		"src/__tests__/cart.test -calls-> src/models/cart.Cart.add src/__tests__/cart.test.ts:6",
		"src/__tests__/cart.test -calls-> src/models/cart.Cart.constructor src/__tests__/cart.test.ts:5",
		"src/__tests__/cart.test -calls-> src/models/cart.Cart.total src/__tests__/cart.test.ts:7",
		"src/__tests__/cart.test -calls-> src/models/product.Product.create src/__tests__/cart.test.ts:6",
		"src/__tests__/cart.test -calls-> src/models/product.Product.create src/__tests__/cart.test.ts:6",
		"src/__tests__/cart.test -instantiates-> src/models/cart.Cart src/__tests__/cart.test.ts:5",
		"src/__tests__/cart.test.fixture -calls-> src/models/cart.Cart.addProduct src/__tests__/cart.test.ts:12",
		"src/__tests__/cart.test.fixture -calls-> src/models/cart.Cart.constructor src/__tests__/cart.test.ts:12",
		"src/__tests__/cart.test.fixture -instantiates-> src/models/cart.Cart src/__tests__/cart.test.ts:12",
		"src/app -calls-> src/app.main src/app.ts:31",
		"src/app -instantiates-> src/services/repo.MemoryRepository src/app.ts:10",
		"src/app.main -calls-> lib/logger.Logger.info src/app.ts:18",
		"src/app.main -calls-> src/models/product.Product.create src/app.ts:16",
		"src/app.main -calls-> src/services/cart.CartService.add src/app.ts:17",
		"src/app.main -calls-> src/services/cart.CartService.quick src/app.ts:15",
		"src/app.main -calls-> src/services/repo.Repository.save src/app.ts:20",
		"src/app.main -calls-> src/util/format.Money.round src/app.ts:19",
		"src/app.main -calls-> src/util/format.formatPrice src/app.ts:19",
		"src/app.main -calls-> src/util/legacy.shout src/app.ts:19",
		"src/app.main -calls-> src/util/legacy.slugify src/app.ts:16",
		"src/app.main -calls-> src/util/legacy.titleCase src/app.ts:18",
		"src/app.main -calls-> src/util/math.mean src/app.ts:19",
		"src/models/cart.Cart.addProduct -calls-> src/models/cart.Cart.add src/models/cart.ts:27",
		"src/models/cart.Cart.addProduct -calls-> src/models/product.Product.create src/models/cart.ts:27",
		"src/models/cart.Cart.constructor -instantiates-> src/models/cart.NoDiscount src/models/cart.ts:18",
		"src/models/cart.Cart.total -calls-> src/models/cart.PricingRule.apply src/models/cart.ts:35",
		"src/models/cart.Cart.total -calls-> src/models/product.Item.price src/models/cart.ts:33",
		"src/models/product.Item.describe -calls-> src/models/product.Item.price src/models/product.ts:31",
		"src/models/product.Item.label -calls-> src/models/product.Item.describe src/models/product.ts:35",
		"src/models/product.Product.constructor -calls-> src/models/product.Item.constructor src/models/product.ts:43",
		"src/models/product.Product.create -calls-> src/models/product.Product.constructor src/models/product.ts:48",
		"src/models/product.Product.create -instantiates-> src/models/product.Product src/models/product.ts:48",
		"src/models/product.Product.describe -calls-> src/models/product.Item.describe src/models/product.ts:56",
		"src/services/cart.CartService -calls-> lib/logger.Logger.constructor src/services/cart.ts:12",
		"src/services/cart.CartService -calls-> lib/logger.Logger.info src/services/cart.ts:10",
		"src/services/cart.CartService -instantiates-> lib/logger.Logger src/services/cart.ts:12",
		"src/services/cart.CartService.add -calls-> lib/logger.Logger.info src/services/cart.ts:18",
		"src/services/cart.CartService.add -calls-> src/models/cart.Cart.add src/services/cart.ts:17",
		"src/services/cart.CartService.add -calls-> src/models/product.Item.price src/services/cart.ts:18",
		"src/services/cart.CartService.add -calls-> src/util/format.currency src/services/cart.ts:18",
		"src/services/cart.CartService.checkout -calls-> lib/logger.Logger.warn src/services/cart.ts:28",
		"src/services/cart.CartService.checkout -calls-> src/models/cart.Cart.total src/services/cart.ts:23",
		"src/services/cart.CartService.checkout -calls-> src/services/repo.Repository.save src/services/cart.ts:25",
		"src/services/cart.CartService.checkout -calls-> src/util/format.formatPrice src/services/cart.ts:31",
		"src/services/cart.CartService.constructor -calls-> src/models/cart.Cart.constructor src/services/cart.ts:13",
		"src/services/cart.CartService.constructor -instantiates-> src/models/cart.Cart src/services/cart.ts:13",
		"src/services/cart.CartService.quick -calls-> src/models/product.Product.create src/services/cart.ts:36",
		"src/services/cart.CartService.quick -calls-> src/services/cart.CartService.add src/services/cart.ts:36",
		"src/services/cart.CartService.quick -calls-> src/services/cart.CartService.constructor src/services/cart.ts:35",
		"src/services/cart.CartService.quick -instantiates-> src/services/cart.CartService src/services/cart.ts:35",
		"src/ui/CartView.Row -calls-> src/util/format.formatPrice src/ui/CartView.tsx:11",
		"src/util/format.Money -calls-> src/util/format.Money.round src/util/format.ts:15",
		"src/util/format.currency -calls-> src/util/format.formatPrice src/util/format.ts:6",
		"src/util/format.formatPrice -calls-> src/util/format.Money.round src/util/format.ts:3",
		"src/util/legacy.shout -calls-> src/util/legacy.titleCase src/util/legacy.js:15",
	}
	g, err := indexer.Index(context.Background(), "../../testdata/typescript/shop", indexer.Options{Languages: typescript.All(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	byID := make(map[uint64]schemas.Node)
	for _, n := range g.Nodes {
		byID[n.ID] = n
	}
	var got []string
	calls, resolved := 0, 0
	for _, e := range g.Edges {
		if e.Kind == schemas.EdgeCalls {
			calls++
		}
		if e.Kind != schemas.EdgeCalls && e.Kind != schemas.EdgeInstantiates || e.Dst == 0 {
			continue
		}
		if e.Kind == schemas.EdgeCalls {
			resolved++
		}
		got = append(got, fmt.Sprintf("%s -%s-> %s %s:%d", byID[e.Src].QualifiedName, e.Kind, byID[e.Dst].QualifiedName, e.File, e.Line))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("resolved calls differ:\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
	t.Logf("%d of %d calls resolved", resolved, calls)
}
