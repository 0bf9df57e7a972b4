package java_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/java"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

// TestPrecisionFixture asserts the exact set of resolved call edges of the
// fixture: every one of them was checked by hand (and by javac, below).
func TestPrecisionFixture(t *testing.T) {
	g, err := indexer.Index(context.Background(), "../../testdata/java/shop", indexer.Options{Languages: []indexer.Language{java.New()}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range languagetest.Render(g).Edges {
		if strings.Contains(e, " -calls-> ") && !strings.Contains(e, " -calls-> ?") {
			got = append(got, strings.ReplaceAll(e, "com.example.shop.", ""))
		}
	}
	want := strings.Split(strings.TrimSpace(fixtureCalls), "\n")
	for i := range want {
		want[i] = strings.TrimSpace(want[i])
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("resolved calls of the fixture differ:\n%s", diff(want, got))
	}
}

// fixtureCalls are the resolved call edges of testdata/java/shop, package
// prefix com.example.shop. dropped.
const fixtureCalls = `
ShopApp.checkout -calls-> ShopApp.checkout.Printer.print (receiver) src/main/java/com/example/shop/ShopApp.java:52
ShopApp.checkout -calls-> cart.Cart.summary (receiver) src/main/java/com/example/shop/ShopApp.java:52
ShopApp.checkout -calls-> model.Money.euros (import) src/main/java/com/example/shop/ShopApp.java:36
ShopApp.checkout.1.charge -calls-> ShopApp.checkout.1.describe (scope) src/main/java/com/example/shop/ShopApp.java:40
ShopApp.checkout.1.describe -calls-> model.Money.toString (receiver) src/main/java/com/example/shop/ShopApp.java:44
ShopApp.checkout -calls-> payment.CardPayment.<init> (import) src/main/java/com/example/shop/ShopApp.java:35
ShopApp.checkout -calls-> payment.PaymentService.checkout (receiver) src/main/java/com/example/shop/ShopApp.java:53
ShopApp.checkout -calls-> payment.PaymentService.register (receiver) src/main/java/com/example/shop/ShopApp.java:35
ShopApp.checkout -calls-> payment.PaymentService.register (receiver) src/main/java/com/example/shop/ShopApp.java:36
ShopApp.checkout -calls-> payment.PaymentService.register (receiver) src/main/java/com/example/shop/ShopApp.java:37
ShopApp.checkout -calls-> payment.WalletPayment.<init> (import) src/main/java/com/example/shop/ShopApp.java:36
ShopApp.fill -calls-> model.Item.<init> (import) src/main/java/com/example/shop/ShopApp.java:27
ShopApp.fill -calls-> model.Item.<init> (import) src/main/java/com/example/shop/ShopApp.java:28
ShopApp.fill -calls-> model.Money.euros (import) src/main/java/com/example/shop/ShopApp.java:27
ShopApp.fill -calls-> model.Money.euros (import) src/main/java/com/example/shop/ShopApp.java:28
ShopApp.fill -calls-> util.Strings.pad (import) src/main/java/com/example/shop/ShopApp.java:30
ShopApp.main -calls-> ShopApp.checkout (receiver) src/main/java/com/example/shop/ShopApp.java:22
ShopApp.main -calls-> ShopApp.fill (receiver) src/main/java/com/example/shop/ShopApp.java:20
ShopApp.main -calls-> cart.Cart.apply (receiver) src/main/java/com/example/shop/ShopApp.java:21
ShopApp.main -calls-> cart.PercentDiscount.<init> (import) src/main/java/com/example/shop/ShopApp.java:21
cart.BulkRule.<init> -calls-> cart.PricingRule.<init> (scope) src/main/java/com/example/shop/cart/BulkRule.java:10
cart.BulkRule.adjust -calls-> cart.Discount.apply (receiver) src/main/java/com/example/shop/cart/BulkRule.java:20
cart.BulkRule.appliesTo -calls-> cart.Cart.lines (receiver) src/main/java/com/example/shop/cart/BulkRule.java:15
cart.BulkRule.discount -calls-> cart.PercentDiscount.<init> (scope) src/main/java/com/example/shop/cart/BulkRule.java:7
cart.Cart.Line.remove -calls-> cart.Cart.touch (scope) src/main/java/com/example/shop/cart/Cart.java:31
cart.Cart.Line.total -calls-> model.Item.priceFor (receiver) src/main/java/com/example/shop/cart/Cart.java:25
cart.Cart.add -calls-> cart.Cart.Line.<init> (scope) src/main/java/com/example/shop/cart/Cart.java:69
cart.Cart.add -calls-> cart.Cart.add (scope) src/main/java/com/example/shop/cart/Cart.java:57
cart.Cart.add -calls-> cart.Cart.touch (scope) src/main/java/com/example/shop/cart/Cart.java:65 loop,cond
cart.Cart.add -calls-> cart.Cart.touch (scope) src/main/java/com/example/shop/cart/Cart.java:71
cart.Cart.add -calls-> model.Item.sku (receiver) src/main/java/com/example/shop/cart/Cart.java:63 loop
cart.Cart.add -calls-> model.Item.sku (receiver) src/main/java/com/example/shop/cart/Cart.java:63 loop
cart.Cart.apply -calls-> cart.Cart.touch (scope) src/main/java/com/example/shop/cart/Cart.java:77
cart.Cart.discount -calls-> cart.Discount.none (scope) src/main/java/com/example/shop/cart/Cart.java:52
cart.Cart.summary -calls-> cart.Cart.Summary.<init> (scope) src/main/java/com/example/shop/cart/Cart.java:90
cart.Cart.summary -calls-> cart.Cart.total (scope) src/main/java/com/example/shop/cart/Cart.java:90
cart.Cart.total -calls-> cart.Cart.Line.total (receiver) src/main/java/com/example/shop/cart/Cart.java:83 loop
cart.Cart.total -calls-> cart.Discount.apply (receiver) src/main/java/com/example/shop/cart/Cart.java:85
cart.Cart.total -calls-> model.Money.euros (import) src/main/java/com/example/shop/cart/Cart.java:81
cart.Cart.total -calls-> model.Money.plus (receiver) src/main/java/com/example/shop/cart/Cart.java:83 loop
cart.CartTest.addMergesLines -calls-> cart.Cart.add (receiver) src/test/java/com/example/shop/cart/CartTest.java:25
cart.CartTest.addMergesLines -calls-> cart.Cart.add (receiver) src/test/java/com/example/shop/cart/CartTest.java:26
cart.CartTest.addMergesLines -calls-> cart.Cart.lines (receiver) src/test/java/com/example/shop/cart/CartTest.java:27
cart.CartTest.addMergesLines -calls-> cart.Cart.total (receiver) src/test/java/com/example/shop/cart/CartTest.java:28
cart.CartTest.addMergesLines -calls-> model.Money.euros (import) src/test/java/com/example/shop/cart/CartTest.java:28
cart.CartTest.book -calls-> model.Item.<init> (import) src/test/java/com/example/shop/cart/CartTest.java:16
cart.CartTest.book -calls-> model.Money.euros (import) src/test/java/com/example/shop/cart/CartTest.java:16
cart.CartTest.emptyCartIsEmpty -calls-> cart.Cart.isEmpty (receiver) src/test/java/com/example/shop/cart/CartTest.java:41
cart.CartTest.percentDiscount -calls-> cart.Cart.add (receiver) src/test/java/com/example/shop/cart/CartTest.java:34
cart.CartTest.percentDiscount -calls-> cart.Cart.apply (receiver) src/test/java/com/example/shop/cart/CartTest.java:35
cart.CartTest.percentDiscount -calls-> cart.Cart.total (receiver) src/test/java/com/example/shop/cart/CartTest.java:36
cart.CartTest.percentDiscount -calls-> cart.PercentDiscount.<init> (scope) src/test/java/com/example/shop/cart/CartTest.java:35
cart.CartTest.percentDiscount -calls-> model.Item.price (receiver) src/test/java/com/example/shop/cart/CartTest.java:36
cart.CartTest.percentDiscount -calls-> model.Money.compareTo (receiver) src/test/java/com/example/shop/cart/CartTest.java:36
cart.FixedDiscount.apply -calls-> model.Money.<init> (import) src/main/java/com/example/shop/cart/FixedDiscount.java:18
cart.FixedDiscount.apply -calls-> model.Money.cents (receiver) src/main/java/com/example/shop/cart/FixedDiscount.java:18
cart.FixedDiscount.apply -calls-> model.Money.cents (receiver) src/main/java/com/example/shop/cart/FixedDiscount.java:18
cart.FixedDiscount.apply -calls-> model.Money.compareTo (receiver) src/main/java/com/example/shop/cart/FixedDiscount.java:15
cart.FixedDiscount.apply -calls-> model.Money.currency (receiver) src/main/java/com/example/shop/cart/FixedDiscount.java:18
cart.PercentDiscount.apply -calls-> model.Money.<init> (import) src/main/java/com/example/shop/cart/PercentDiscount.java:19
cart.PercentDiscount.apply -calls-> model.Money.cents (receiver) src/main/java/com/example/shop/cart/PercentDiscount.java:18
cart.PercentDiscount.apply -calls-> model.Money.cents (receiver) src/main/java/com/example/shop/cart/PercentDiscount.java:19
cart.PercentDiscount.apply -calls-> model.Money.currency (receiver) src/main/java/com/example/shop/cart/PercentDiscount.java:19
cart.PricingRule.applyTo -calls-> cart.PricingRule.adjust (scope) src/main/java/com/example/shop/cart/PricingRule.java:20 cond
cart.PricingRule.applyTo -calls-> cart.PricingRule.appliesTo (scope) src/main/java/com/example/shop/cart/PricingRule.java:20
legacy.Broken.unfinished -calls-> legacy.Broken.before (scope) src/main/java/com/example/shop/legacy/Broken.java:9
model.Category.BOOKS -calls-> model.Category.<init> (scope) src/main/java/com/example/shop/model/Category.java:6
model.Category.ELECTRONICS -calls-> model.Category.<init> (scope) src/main/java/com/example/shop/model/Category.java:7
model.Category.ELECTRONICS.label -calls-> model.Category.rateText (scope) src/main/java/com/example/shop/model/Category.java:10
model.Category.FOOD -calls-> model.Category.<init> (scope) src/main/java/com/example/shop/model/Category.java:5
model.Item.isTaxed -calls-> model.Category.taxRate (receiver) src/main/java/com/example/shop/model/Item.java:18
model.Item.priceFor -calls-> model.Money.times (receiver) src/main/java/com/example/shop/model/Item.java:14
model.Money.ZERO -calls-> model.Money.<init> (scope) src/main/java/com/example/shop/model/Money.java:11
model.Money.compareTo -calls-> model.Money.requireSameCurrency (scope) src/main/java/com/example/shop/model/Money.java:42
model.Money.euros -calls-> model.Money.<init> (scope) src/main/java/com/example/shop/model/Money.java:22
model.Money.plus -calls-> model.Money.<init> (scope) src/main/java/com/example/shop/model/Money.java:27
model.Money.plus -calls-> model.Money.cents (receiver) src/main/java/com/example/shop/model/Money.java:27
model.Money.plus -calls-> model.Money.requireSameCurrency (scope) src/main/java/com/example/shop/model/Money.java:26
model.Money.requireSameCurrency -calls-> model.Money.currency (receiver) src/main/java/com/example/shop/model/Money.java:35
model.Money.requireSameCurrency -calls-> model.Money.currency (receiver) src/main/java/com/example/shop/model/Money.java:36 cond
model.Money.times -calls-> model.Money.<init> (scope) src/main/java/com/example/shop/model/Money.java:31
payment.CardPayment.charge -calls-> payment.CardPayment.masked (scope) src/main/java/com/example/shop/payment/CardPayment.java:17 cond
payment.CardPayment.charge -calls-> payment.CardPayment.valid (scope) src/main/java/com/example/shop/payment/CardPayment.java:16
payment.CardPayment.charge -calls-> payment.PaymentException.<init> (scope) src/main/java/com/example/shop/payment/CardPayment.java:17 cond
payment.PaymentService.checkout -calls-> cart.Cart.total (receiver) src/main/java/com/example/shop/payment/PaymentService.java:26
payment.PaymentService.checkout -calls-> model.Money.currency (receiver) src/main/java/com/example/shop/payment/PaymentService.java:28 loop
payment.PaymentService.checkout -calls-> payment.PaymentMethod.charge (receiver) src/main/java/com/example/shop/payment/PaymentService.java:32 loop,try
payment.PaymentService.checkout -calls-> payment.PaymentMethod.supports (receiver) src/main/java/com/example/shop/payment/PaymentService.java:28 loop
payment.PaymentService.checkout -calls-> payment.PaymentService.log (scope) src/main/java/com/example/shop/payment/PaymentService.java:33 loop,try
payment.PaymentService.checkout -calls-> payment.PaymentService.log (scope) src/main/java/com/example/shop/payment/PaymentService.java:36 loop
payment.PaymentService.report -calls-> payment.PaymentService.log (scope) src/main/java/com/example/shop/payment/PaymentService.java:56
payment.PaymentService.log -calls-> util.Strings.pad (import) src/main/java/com/example/shop/payment/PaymentService.java:43
payment.WalletPayment.charge -calls-> model.Money.<init> (import) src/main/java/com/example/shop/payment/WalletPayment.java:18
payment.WalletPayment.charge -calls-> model.Money.cents (receiver) src/main/java/com/example/shop/payment/WalletPayment.java:18
payment.WalletPayment.charge -calls-> model.Money.cents (receiver) src/main/java/com/example/shop/payment/WalletPayment.java:18
payment.WalletPayment.charge -calls-> model.Money.compareTo (receiver) src/main/java/com/example/shop/payment/WalletPayment.java:15
payment.WalletPayment.charge -calls-> model.Money.currency (receiver) src/main/java/com/example/shop/payment/WalletPayment.java:18
payment.WalletPayment.charge -calls-> payment.PaymentException.<init> (scope) src/main/java/com/example/shop/payment/WalletPayment.java:16 cond
payment.WalletPayment.supports -calls-> model.Money.currency (receiver) src/main/java/com/example/shop/payment/WalletPayment.java:24
util.Strings.pad -calls-> util.Strings.pad (scope) src/main/java/com/example/shop/util/Strings.java:10
`

var verbose = flag.Bool("precision.verbose", false, "log the edges javac could not confirm and the calls it resolved that the resolver did not")

func diff(want, got []string) string {
	var b strings.Builder
	for _, w := range want {
		if !slices.Contains(got, w) {
			fmt.Fprintf(&b, "- %s\n", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			fmt.Fprintf(&b, "+ %s\n", g)
		}
	}
	return b.String()
}

// TestPrecisionJavac compiles Java trees with javac and a plugin
// (testdata/javac/CallDump.java) that prints what the compiler resolved
// every call, instance creation and method reference to, and checks that
// every edge the resolver made agrees: same declaring type, same name,
// same parameter types. The trees are the fixture, flatbuffers' Java
// sources (a dependency of this module, in the module cache) and the
// folders listed in $SNAP_JAVA_PRECISION (colon-separated; a folder may
// be followed by "|" and more javac arguments, such as
// "src/java.base|--patch-module java.base=src/java.base" for the JDK's
// own sources). Classes javac cannot find (a library missing from its
// class path) make errors it goes past: calls it could not resolve are
// not compared.
func TestPrecisionJavac(t *testing.T) {
	javac := languagetest.LookTool(t, "javac", "the precision check against the compiler needs a JDK (apt-get install openjdk-17-jdk-headless)")
	roots := languagetest.Roots("../../testdata/java/shop", "SNAP_JAVA_PRECISION")
	if out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/google/flatbuffers").Output(); err == nil {
		if dir := filepath.Join(strings.TrimSpace(string(out)), "java"); dirExists(dir) {
			roots = slices.Insert(roots, 1, dir)
		}
	}
	plugin := t.TempDir()
	if out, err := exec.Command(javac, "-d", plugin, "testdata/javac/CallDump.java", "testdata/javac/DeclDump.java").CombinedOutput(); err != nil {
		t.Fatalf("compile the plugins: %v\n%s", err, out)
	}
	services := filepath.Join(plugin, "META-INF", "services")
	if err := os.MkdirAll(services, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(services, "com.sun.source.util.Plugin"), []byte("CallDump\nDeclDump\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range roots {
		root, args, _ := strings.Cut(root, "|")
		t.Run(filepath.Base(root), func(t *testing.T) {
			checkWithJavac(t, javac, plugin, root, strings.Fields(args))
			checkDefinitions(t, javac, plugin, root, strings.Fields(args))
		})
	}
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// site is where javac resolved a call: file, line, column and kind.
type site struct {
	file      string
	line, col uint32
	kind      string
}

// resolved is what javac resolved a call to.
type resolved struct {
	owner, name string
	params      []string
}

// runPlugin compiles every .java file under abs with javac and the
// plugin name of the plugin folder, and returns what it printed. Compile
// errors are expected where a library is missing: the plugin still sees
// what javac attributed.
func runPlugin(t *testing.T, javac, plugin, name, abs string, args []string) (stdout, stderr *bytes.Buffer) {
	t.Helper()
	var files []string
	filepath.WalkDir(abs, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") && d.Name() != "module-info.java" {
			files = append(files, p)
		}
		return nil
	})
	tmp := t.TempDir()
	list := filepath.Join(tmp, "files")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(javac, append(append([]string{"-proc:none", "-implicit:none", "-nowarn", "-encoding", "UTF-8", "-d", filepath.Join(tmp, "out"),
		"-processorpath", plugin, "-Xplugin:" + name, "-XDshould-stop.ifError=FLOW", "-Xmaxerrs", "1000000"}, args...), "@"+list)...)
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	_ = cmd.Run()
	return stdout, stderr
}

func checkWithJavac(t *testing.T, javac, plugin, root string, args []string) {
	abs := languagetest.AbsTree(t, root)
	stdout, stderr := runPlugin(t, javac, plugin, "CallDump", abs, args)
	truth := make(map[site]resolved)
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 8 {
			continue
		}
		var line, col uint32
		fmt.Sscan(f[1], &line)
		fmt.Sscan(f[2], &col)
		rel, err := filepath.Rel(abs, f[0])
		if err != nil {
			continue
		}
		var params []string
		if f[6] != "" {
			params = strings.Split(f[6], ",")
		}
		truth[site{filepath.ToSlash(rel), line, col, f[3]}] = resolved{owner: f[4], name: f[5], params: params}
	}
	if len(truth) == 0 {
		t.Fatalf("javac resolved nothing under %s:\n%s", root, stderr.String())
	}

	g := languagetest.IndexTree(t, abs, java.New())
	byID := make(map[uint64]*schemas.Node, len(g.Nodes))
	for i := range g.Nodes {
		byID[g.Nodes[i].ID] = &g.Nodes[i]
	}
	params := make(map[uint64]string)
	for _, r := range g.Refs {
		if r.Kind == java.RefParams {
			params[r.Src] = r.Expr
		}
	}
	typeNames := make(map[string]bool)
	members := make(map[string][]*schemas.Node) // methods and constructors by qualified name
	// anonymous names an anonymous class as the plugin does.
	anonymous := func(n *schemas.Node) string {
		if n == nil || n.Kind != schemas.KindClass || !strings.HasPrefix(n.Signature, "new ") {
			return ""
		}
		return fmt.Sprintf("anonymous:%s:%d:%d", filepath.Join(abs, n.File), n.StartLine, n.StartCol)
	}
	for i := range g.Nodes {
		switch n := &g.Nodes[i]; n.Kind {
		case schemas.KindClass, schemas.KindInterface, schemas.KindEnum:
			typeNames[n.QualifiedName] = true
			if a := anonymous(n); a != "" {
				typeNames[a] = true
			}
		case schemas.KindMethod, schemas.KindConstructor:
			members[n.QualifiedName] = append(members[n.QualifiedName], n)
		}
	}
	// equivalent reports whether dst and javac's method are the same
	// abstract method declared by two types, which Java lets the compiler
	// choose between (JLS 15.12.2.5).
	equivalent := func(dst *schemas.Node, want resolved) bool {
		if !dst.IsAbstract || dst.Name != want.name || !sameParams(params[dst.ID], want.params) {
			return false
		}
		for _, m := range members[want.owner+"."+want.name] {
			if m.IsAbstract && sameParams(params[m.ID], want.params) {
				return true
			}
		}
		return false
	}
	var checked, wrong, unverified, missed int
	var report []string
	seen := make(map[site]bool)
	reasons := make(map[string]int) // why the calls javac resolved into the tree were not
	sites := make(map[site]bool)
	for _, e := range g.Edges {
		var kinds []string
		switch {
		case e.Kind == schemas.EdgeCalls && strings.HasPrefix(e.Target, "new ") && !strings.Contains(e.Target, "("): // not new T().m
			kinds = []string{"new"}
		case e.Kind == schemas.EdgeCalls:
			kinds = []string{"call"}
		case e.Kind == schemas.EdgeReferences && strings.Contains(e.Target, "::"):
			kinds = []string{"ref"}
		default:
			continue
		}
		s := site{e.File, e.Line, e.Col, kinds[0]}
		sites[s] = true
		want, ok := truth[s]
		if e.Dst == 0 {
			if ok && typeNames[want.owner] && !seen[s] {
				reasons[reasonClass(e.Reason)]++
				if *verbose {
					t.Logf("unresolved %s:%d:%d %s (%s): javac says %s.%s(%s)", e.File, e.Line, e.Col, e.Target, e.Reason, want.owner, want.name, strings.Join(want.params, ","))
				}
			}
			if ok && e.Resolution != schemas.Ambiguous && !strings.HasPrefix(e.Reason, "external type") {
				if typeNames[want.owner] {
					seen[s] = true
					missed++
					if *verbose {
						t.Logf("missed %s:%d:%d %s (%s): javac says %s.%s", e.File, e.Line, e.Col, e.Target, e.Reason, want.owner, want.name)
					}
				}
			}
			continue
		}
		if !ok {
			unverified++
			if *verbose {
				t.Logf("unverified %s:%d:%d %s -> %s", e.File, e.Line, e.Col, e.Target, byID[e.Dst].QualifiedName)
			}
			continue
		}
		seen[s] = true
		checked++
		dst := byID[e.Dst]
		owner := dst.QualifiedName[:max(0, strings.LastIndexByte(dst.QualifiedName, '.'))]
		if dst.Kind == schemas.KindConstructor {
			owner = strings.TrimSuffix(dst.QualifiedName, ".<init>")
		}
		if dst.Kind == schemas.KindClass || dst.Kind == schemas.KindInterface || dst.Kind == schemas.KindEnum {
			owner = dst.QualifiedName // a reference to a constructor resolved to its class
		}
		if a := anonymous(byID[dst.ParentID]); a != "" {
			owner = a
		}
		sameOwner := owner == want.owner ||
			!typeNames[want.owner] && strings.HasSuffix(owner, "."+want.owner) // javac names local classes by their simple name
		match := sameOwner && (dst.Name == want.name || dst.Kind != schemas.KindMethod && dst.Kind != schemas.KindConstructor)
		if match && (dst.Kind == schemas.KindMethod || dst.Kind == schemas.KindConstructor) {
			match = sameParams(params[dst.ID], want.params)
		}
		if !match && want.owner == "java.lang.Object" && dst.Name == want.name && sameParams(params[dst.ID], want.params) {
			match = byID[dst.ParentID] != nil && byID[dst.ParentID].Kind == schemas.KindInterface // an interface redeclaring it
		}
		match = match || equivalent(dst, want)
		if !match {
			wrong++
			report = append(report, fmt.Sprintf("%s:%d:%d %s: resolved to %s(%s), javac says %s.%s(%s)", e.File, e.Line, e.Col, e.Target,
				dst.QualifiedName, params[dst.ID], want.owner, want.name, strings.Join(want.params, ",")))
		}
	}
	inTree := 0
	for s, w := range truth {
		if typeNames[w.owner] {
			inTree++
			if !sites[s] {
				reasons["no edge at the site"]++
				if *verbose {
					t.Logf("no edge %s:%d:%d %s: javac says %s.%s", s.file, s.line, s.col, s.kind, w.owner, w.name)
				}
			}
		}
	}
	t.Logf("%s: javac resolved %d sites, %d into the tree; %d edges checked (%.1f%% of those), %d wrong, %d resolved where javac could not tell; %d left unresolved for no reason (neither ambiguous nor external)",
		root, len(truth), inTree, checked, 100*float64(checked)/float64(max(1, inTree)), wrong, unverified, missed)
	for _, w := range slices.SortedFunc(maps.Keys(reasons), func(a, b string) int { return cmp.Or(reasons[b]-reasons[a], strings.Compare(a, b)) })[:min(10, len(reasons))] {
		t.Logf("  unresolved: %d %s", reasons[w], w)
	}
	slices.Sort(report)
	for i, r := range report {
		if i == 50 {
			t.Errorf("… and %d more", len(report)-50)
			break
		}
		t.Error(r)
	}
}

// reasonClass shortens a reason to its kind: "external type a.B" to
// "external type".
func reasonClass(why string) string {
	for _, p := range []string{"external type", "external package", "unknown type", "unknown name", "unknown method", "unknown member", "no overload of", "no constructor with"} {
		if strings.HasPrefix(why, p) {
			return p
		}
	}
	return why
}

// sameParams compares a params fact ("Item,int,String[]...") with javac's
// erased parameter types, by simple names.
func sameParams(fact string, javac []string) bool {
	fact = strings.TrimSuffix(fact, "...")
	var mine []string
	if fact != "" {
		mine = strings.Split(fact, ",")
	}
	if len(mine) != len(javac) {
		return false
	}
	simple := func(s string) string { return strings.TrimPrefix(s[strings.LastIndexByte(s, '.')+1:], "^") } // ^: a class's type variable
	for i := range mine {
		if javac[i] != "<any>" && simple(mine[i]) != simple(javac[i]) { // <any>: a type javac could not find
			return false
		}
	}
	return true
}
