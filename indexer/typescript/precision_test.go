package typescript_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
)

// TestPrecisionFixture checks the exact set of calls and instantiates
// edges the resolver makes over the fixture, each checked by hand against
// the sources: one more is a guess, one less a regression.
func TestPrecisionFixture(t *testing.T) {
	languagetest.Precision(t, "../../testdata/typescript/shop", []string{
		"lib/logger.js:13 lib/logger.Logger.warn -calls-> lib/logger.Logger.write@lib/logger.js:16",
		"lib/logger.js:22 lib/logger -calls-> lib/logger.Logger.constructor@lib/logger.js:3",
		"lib/logger.js:22 lib/logger -instantiates-> lib/logger.Logger@lib/logger.js:2",
		"lib/logger.js:9 lib/logger.Logger.info -calls-> lib/logger.Logger.write@lib/logger.js:16",
		"src/__tests__/cart.test.ts:12 src/__tests__/cart.test.fixture -calls-> src/models/cart.Cart.addProduct@src/models/cart.ts:26",
		"src/__tests__/cart.test.ts:12 src/__tests__/cart.test.fixture -calls-> src/models/cart.Cart.constructor@src/models/cart.ts:17",
		"src/__tests__/cart.test.ts:12 src/__tests__/cart.test.fixture -instantiates-> src/models/cart.Cart@src/models/cart.ts:13",
		"src/__tests__/cart.test.ts:16 src/__tests__/cart.test -calls-> src/__tests__/cart.test.fixture@src/__tests__/cart.test.ts:11",
		"src/__tests__/cart.test.ts:5 src/__tests__/cart.test -calls-> src/models/cart.Cart.constructor@src/models/cart.ts:17",
		"src/__tests__/cart.test.ts:5 src/__tests__/cart.test -instantiates-> src/models/cart.Cart@src/models/cart.ts:13",
		"src/__tests__/cart.test.ts:6 src/__tests__/cart.test -calls-> src/models/cart.Cart.add@src/models/cart.ts:21",
		"src/__tests__/cart.test.ts:6 src/__tests__/cart.test -calls-> src/models/cart.Cart.add@src/models/cart.ts:21",
		"src/__tests__/cart.test.ts:6 src/__tests__/cart.test -calls-> src/models/product.Product.create@src/models/product.ts:47",
		"src/__tests__/cart.test.ts:6 src/__tests__/cart.test -calls-> src/models/product.Product.create@src/models/product.ts:47",
		"src/__tests__/cart.test.ts:7 src/__tests__/cart.test -calls-> src/models/cart.Cart.total@src/models/cart.ts:30",
		"src/app.ts:10 src/app -instantiates-> src/services/repo.MemoryRepository@src/services/repo.ts:8",
		"src/app.ts:15 src/app.main -calls-> src/services/cart.CartService.quick@src/services/cart.ts:34",
		"src/app.ts:16 src/app.main -calls-> src/models/product.Product.create@src/models/product.ts:47",
		"src/app.ts:16 src/app.main -calls-> src/util/legacy.slugify@src/util/legacy.js:3",
		"src/app.ts:17 src/app.main -calls-> src/services/cart.CartService.add@src/services/cart.ts:16",
		"src/app.ts:18 src/app.main -calls-> lib/logger.Logger.info@lib/logger.js:8",
		"src/app.ts:18 src/app.main -calls-> src/util/legacy.titleCase@src/util/legacy.js:7",
		"src/app.ts:19 src/app.main -calls-> src/util/format.Money.round@src/util/format.ts:9",
		"src/app.ts:19 src/app.main -calls-> src/util/format.formatPrice@src/util/format.ts:2",
		"src/app.ts:19 src/app.main -calls-> src/util/legacy.shout@src/util/legacy.js:14",
		"src/app.ts:19 src/app.main -calls-> src/util/math.mean@src/util/math.cjs:5",
		"src/app.ts:20 src/app.main -calls-> src/services/repo.Repository.save@src/services/repo.ts:4",
		"src/app.ts:31 src/app -calls-> src/app.main@src/app.ts:14",
		"src/models/cart.ts:18 src/models/cart.Cart.constructor -instantiates-> src/models/cart.NoDiscount@src/models/cart.ts:7",
		"src/models/cart.ts:27 src/models/cart.Cart.addProduct -calls-> src/models/cart.Cart.add@src/models/cart.ts:21",
		"src/models/cart.ts:27 src/models/cart.Cart.addProduct -calls-> src/models/product.Product.create@src/models/product.ts:47",
		"src/models/cart.ts:33 src/models/cart.Cart.total -calls-> src/models/product.Item.price@src/models/product.ts:28",
		"src/models/cart.ts:35 src/models/cart.Cart.total -calls-> src/models/cart.PricingRule.apply@src/models/cart.ts:4",
		"src/models/product.ts:31 src/models/product.Item.describe -calls-> src/models/product.Item.price@src/models/product.ts:28",
		"src/models/product.ts:35 src/models/product.Item.label -calls-> src/models/product.Item.describe@src/models/product.ts:30",
		"src/models/product.ts:43 src/models/product.Product.constructor -calls-> src/models/product.Item.constructor@src/models/product.ts:24",
		"src/models/product.ts:48 src/models/product.Product.create -calls-> src/models/product.Product.constructor@src/models/product.ts:42",
		"src/models/product.ts:48 src/models/product.Product.create -instantiates-> src/models/product.Product@src/models/product.ts:39",
		"src/models/product.ts:56 src/models/product.Product.describe -calls-> src/models/product.Item.describe@src/models/product.ts:30",
		"src/services/cart.ts:10 src/services/cart.CartService -calls-> lib/logger.Logger.info@lib/logger.js:8",
		"src/services/cart.ts:12 src/services/cart.CartService -calls-> lib/logger.Logger.constructor@lib/logger.js:3",
		"src/services/cart.ts:12 src/services/cart.CartService -instantiates-> lib/logger.Logger@lib/logger.js:2",
		"src/services/cart.ts:13 src/services/cart.CartService.constructor -calls-> src/models/cart.Cart.constructor@src/models/cart.ts:17",
		"src/services/cart.ts:13 src/services/cart.CartService.constructor -instantiates-> src/models/cart.Cart@src/models/cart.ts:13",
		"src/services/cart.ts:17 src/services/cart.CartService.add -calls-> src/models/cart.Cart.add@src/models/cart.ts:21",
		"src/services/cart.ts:18 src/services/cart.CartService.add -calls-> lib/logger.Logger.info@lib/logger.js:8",
		"src/services/cart.ts:18 src/services/cart.CartService.add -calls-> src/models/product.Item.price@src/models/product.ts:28",
		"src/services/cart.ts:18 src/services/cart.CartService.add -calls-> src/util/format.currency@src/util/format.ts:6",
		"src/services/cart.ts:23 src/services/cart.CartService.checkout -calls-> src/models/cart.Cart.total@src/models/cart.ts:30",
		"src/services/cart.ts:25 src/services/cart.CartService.checkout -calls-> src/services/repo.Repository.save@src/services/repo.ts:4",
		"src/services/cart.ts:28 src/services/cart.CartService.checkout -calls-> lib/logger.Logger.warn@lib/logger.js:12",
		"src/services/cart.ts:31 src/services/cart.CartService.checkout -calls-> src/util/format.formatPrice@src/util/format.ts:2",
		"src/services/cart.ts:35 src/services/cart.CartService.quick -calls-> src/services/cart.CartService.constructor@src/services/cart.ts:12",
		"src/services/cart.ts:35 src/services/cart.CartService.quick -instantiates-> src/services/cart.CartService@src/services/cart.ts:8",
		"src/services/cart.ts:36 src/services/cart.CartService.quick -calls-> src/models/product.Product.create@src/models/product.ts:47",
		"src/services/cart.ts:36 src/services/cart.CartService.quick -calls-> src/services/cart.CartService.add@src/services/cart.ts:16",
		"src/ui/CartView.tsx:11 src/ui/CartView.Row -calls-> src/util/format.formatPrice@src/util/format.ts:2",
		"src/util/format.ts:15 src/util/format.Money -calls-> src/util/format.Money.round@src/util/format.ts:9",
		"src/util/format.ts:3 src/util/format.formatPrice -calls-> src/util/format.Money.round@src/util/format.ts:9",
		"src/util/format.ts:6 src/util/format.currency -calls-> src/util/format.formatPrice@src/util/format.ts:2",
		"src/util/legacy.js:15 src/util/legacy.shout -calls-> src/util/legacy.titleCase@src/util/legacy.js:7",
	}, typescript.All()...)
}
