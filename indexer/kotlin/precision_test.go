package kotlin_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/kotlin"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestResolvedCalls pins the exact set of resolved calls and
// instantiations of the fixture: a new edge or a lost one fails.
func TestResolvedCalls(t *testing.T) {
	g := languagetest.Run(t, "../../testdata/kotlin/shop", "../../testdata/kotlin/shop.golden.json", kotlin.New())
	var got []string
	for _, e := range languagetest.Render(g).Edges {
		if (strings.Contains(e, " -calls-> ") || strings.Contains(e, " -instantiates-> ")) && !strings.Contains(e, "-> ?") {
			got = append(got, strings.ReplaceAll(e[:strings.Index(e, " (")], "com.example.shop.", ""))
		}
	}
	slices.Sort(got)
	got = slices.Compact(got)
	want := []string{
		"Cart.<init> -calls-> Cart.<init>",
		"Cart.add -calls-> Cart.add",
		"Cart.add -calls-> model.Product.Companion.of",
		"Cart.summary -calls-> Cart.total",
		"Cart.total -calls-> Cart.subtotal",
		"Cart.total -calls-> Discount.apply",
		"CartTest.addsProducts -calls-> CartTest.cart",
		"CartTest.addsProducts -calls-> model.Product.Companion.of",
		"CartTest.cart -calls-> Cart.<init>",
		"CartTest.cart -instantiates-> Cart",
		"main -calls-> Cart.<init>",
		"main -calls-> service.Checkout.<init>",
		"main -calls-> service.Checkout.quick",
		"main -instantiates-> Cart",
		"main -instantiates-> service.Checkout",
		"main -instantiates-> util.TimedLog",
		"model.Product.Companion.of -calls-> model.Product.<init>",
		"model.Product.Companion.of -instantiates-> model.Product",
		"service.Checkout.notify -calls-> Cart.summary",
		"service.Checkout.notify -calls-> util.Log.info",
		"service.Checkout.pay -calls-> Cart.total",
		"service.Checkout.pay -calls-> model.Payment.describe",
		"service.Checkout.pay -calls-> service.Receipt.Factory.create",
		"service.Checkout.pay -calls-> util.Log.info",
		"service.Checkout.quick -calls-> Cart.<init>",
		"service.Checkout.quick -calls-> Cart.add",
		"service.Checkout.quick -calls-> Cart.summary",
		"service.Checkout.quick -calls-> PercentDiscount.<init>",
		"service.Checkout.quick -calls-> model.Product.<init>",
		"service.Checkout.quick -calls-> model.zero",
		"service.Checkout.quick -calls-> service.Receipt.Factory.create",
		"service.Checkout.quick -instantiates-> Cart",
		"service.Checkout.quick -instantiates-> PercentDiscount",
		"service.Checkout.quick -instantiates-> model.Product",
		"service.Checkout.resend -calls-> model.Currency.show",
		"service.Checkout.resend -calls-> service.Checkout.notify",
		"service.Receipt.Factory.create -calls-> service.Receipt.<init>",
		"service.Receipt.Factory.create -instantiates-> service.Receipt",
		"util.TimedLog.info -calls-> util.TimedLog.now",
	}
	if !slices.Equal(got, want) {
		t.Errorf("resolved calls:\n%s", strings.Join(got, "\n"))
	}
}
