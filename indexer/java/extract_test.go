package java

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

// exprs returns the Expr of every ref of kind, by line:target.
func exprs(res *indexer.Result, kind string) map[string]string {
	out := make(map[string]string)
	for _, r := range res.Refs {
		if r.Kind == kind {
			out[fmt.Sprintf("%d:%s", r.Line, r.Target)] = r.Expr
		}
	}
	return out
}

func TestExprs(t *testing.T) {
	res := languagetest.Extract(t, New(), nil, "p/A.java", `package p;
import java.util.*;
class A<T, N extends Number> {
    Repo repo;
    void f(Repo r, int n, String... names) {
        Repo local = r;
        var v = new Repo();
        var w = v.find(1);
        r.find(n, 2).save();
        local.save();
        v.save();
        w.go();
        names[0].trim();
        for (var name : names) name.trim();
        ((Repo) o).save();
        this.repo.save();
        super.toString();
        A.this.g();
        repo.save();
        g();
        "x".length();
        java.util.Objects.hash(1);
        Runnable q = () -> helper();
        list.forEach(item -> item.go());
        T t = null;
        t.go();
        N num = null;
        num.intValue();
        new Thread(() -> {}).start();
        new Box<String>(1, 2);
        Repo::find;
        this::g;
        int[] a = null;
        a.clone();
    }
}`)
	calls := exprs(res, schemas.EdgeCalls)
	for at, want := range map[string]string{
		"9:r.find":                      "{Repo}.find({int},{int})",
		"9:r.find(n, 2).save":           "{Repo}.find({int},{int}).save()",
		"10:local.save":                 "{Repo}.save()",
		"11:v.save":                     "{Repo}.save()",
		"12:w.go":                       "{Repo}.find({int}).go()",
		"13:names[0].trim":              "{String[]}[].trim()",
		"14:name.trim":                  "{String[]}[].trim()",
		"15:((Repo) o).save":            "{Repo}.save()",
		"16:this.repo.save":             "this.repo.save()",
		"17:super.toString":             "super.toString()",
		"18:A.this.g":                   "{A}.g()",
		"19:repo.save":                  "repo.save()",
		"20:g":                          "g()",
		"21:\"x\".length":               "{java.lang.String}.length()",
		"22:java.util.Objects.hash":     "java.util.Objects.hash({int})",
		"23:helper":                     "helper()",
		"24:item.go":                    "list.forEach(?fn)->0.0.go()",
		"26:t.go":                       "?typevar",
		"28:num.intValue":               "{Number}.intValue()",
		"29:new Thread(() -> {}).start": "{Thread}.start()",
		"34:a.clone":                    "{int[]}.clone()",
	} {
		if got := calls[at]; got != want {
			t.Errorf("call %s: Expr %q, want %q", at, got, want)
		}
	}
	news := exprs(res, schemas.EdgeInstantiates)
	if got := news["7:new Repo"]; got != "new Repo()" {
		t.Errorf("new Repo: %q", got)
	}
	if got := news["30:new Box<String>"]; got != "new Box({int},{int})" {
		t.Errorf("new Box: %q", got)
	}
	refs := exprs(res, schemas.EdgeReferences)
	if got := refs["31:Repo::find"]; got != "Repo::find" {
		t.Errorf("Repo::find: %q", got)
	}
	if got := refs["32:this::g"]; got != "this::g" {
		t.Errorf("this::g: %q", got)
	}
	params := exprs(res, RefParams)
	if got := params["5:f"]; got != "Repo,int,String[]..." {
		t.Errorf("params of f: %q", got)
	}
}

// TestAnonymousClasses checks that anonymous classes are nodes named by
// number within the node whose code creates them, their members too, and
// that code in an enum constant's body keeps the [T] prefix.
func TestAnonymousClasses(t *testing.T) {
	res := languagetest.Extract(t, New(), nil, "p/A.java", `package p;
class A {
    void f() {
        new Base() {
            int count;
            void own() {}
            void run() {
                own();
                inherited();
                this.inherited();
                count.x();
                new Inner() { void z() { deep(); } };
            }
        };
        new Base() {};
    }
}
enum E { X { void g() { h(); } }; void h() {} }`)
	calls := exprs(res, schemas.EdgeCalls)
	for at, want := range map[string]string{
		"8:own":             "own()",
		"9:inherited":       "inherited()",
		"10:this.inherited": "this.inherited()",
		"11:count.x":        "count.x()",
		"12:deep":           "deep()",
		"18:h":              "[E]h()",
	} {
		if got := calls[at]; got != want {
			t.Errorf("call %s: Expr %q, want %q", at, got, want)
		}
	}
	var names []string
	for _, n := range res.Nodes {
		if strings.HasPrefix(n.QualifiedName, "p.A.f.") {
			names = append(names, n.Kind+" "+n.QualifiedName)
		}
	}
	want := []string{
		"class p.A.f.1", "field p.A.f.1.count", "method p.A.f.1.own", "method p.A.f.1.run",
		"class p.A.f.1.run.1", "method p.A.f.1.run.1.z", "class p.A.f.2",
	}
	if !slices.Equal(names, want) {
		t.Errorf("nodes %q, want %q", names, want)
	}
}

func TestNodes(t *testing.T) {
	res := languagetest.Extract(t, New(), nil, "src/test/java/p/ThingTest.java", `package p;

/**
 * A thing.
 *
 * @author me
 */
@Deprecated
public abstract class ThingTest<T> extends Base implements Runnable {
    public static final int MAX = 3;
    protected String name, label;
    int[] counts[];

    /** Runs. */
    @Test
    public void run() {}

    protected abstract T make(int n) throws Exception;

    private static <U> U pick(U a, U b) { return a; }

    interface Callback { void done(); int LIMIT = 1; }
    enum Mode { ON, OFF }
    public record Pair(int a, int b) { }
    @interface Marker { String value() default ""; }
}`)
	if !res.IsTest {
		t.Error("a file under src/test/ is a test file")
	}
	check := languagetest.Nodes(t, res)
	check("p.ThingTest", schemas.KindClass, func(n schemas.Node) bool {
		return n.IsAbstract && n.Exported && n.Doc == "A thing.\n\n@author me" && len(n.Decorators) == 1 &&
			n.Signature == "class ThingTest<T> extends Base implements Runnable"
	})
	check("p.ThingTest.MAX", schemas.KindConstant, func(n schemas.Node) bool { return n.IsStatic && n.Signature == "int MAX = 3" })
	check("p.ThingTest.name", schemas.KindField, func(n schemas.Node) bool { return n.Visibility == schemas.Protected && n.Exported })
	check("p.ThingTest.label", schemas.KindField, func(n schemas.Node) bool { return n.Visibility == schemas.Protected })
	check("p.ThingTest.counts", schemas.KindField, func(n schemas.Node) bool { return n.Visibility == schemas.Internal && !n.Exported })
	check("p.ThingTest.run", schemas.KindMethod, func(n schemas.Node) bool { return n.IsTest && n.Doc == "Runs." && n.Signature == "void run()" })
	check("p.ThingTest.make", schemas.KindMethod, func(n schemas.Node) bool {
		return n.IsAbstract && n.Signature == "T make(int n) throws Exception"
	})
	check("p.ThingTest.pick", schemas.KindMethod, func(n schemas.Node) bool { return n.IsStatic && n.Visibility == schemas.Private })
	check("p.ThingTest.Callback", schemas.KindInterface, func(n schemas.Node) bool { return n.IsStatic && n.IsAbstract && n.Visibility == schemas.Internal })
	check("p.ThingTest.Callback.done", schemas.KindMethod, func(n schemas.Node) bool { return n.IsAbstract && n.Visibility == schemas.Public })
	check("p.ThingTest.Callback.LIMIT", schemas.KindConstant, func(n schemas.Node) bool { return n.IsStatic && n.Visibility == schemas.Public })
	check("p.ThingTest.Mode", schemas.KindEnum, func(n schemas.Node) bool { return n.IsStatic })
	check("p.ThingTest.Mode.ON", schemas.KindConstant, func(n schemas.Node) bool { return n.IsStatic })
	check("p.ThingTest.Pair", schemas.KindClass, func(n schemas.Node) bool { return n.IsStatic && n.Exported })
	check("p.ThingTest.Pair.a", schemas.KindField, func(n schemas.Node) bool { return !n.IsStatic })
	check("p.ThingTest.Marker", schemas.KindInterface, func(n schemas.Node) bool { return n.Signature == "@interface Marker" })
	check("p.ThingTest.Marker.value", schemas.KindMethod, func(n schemas.Node) bool { return n.IsAbstract })
	types := exprs(res, schemas.RefType)
	if got := types["12:int[]"]; got != "{int[][]}" {
		t.Errorf("type of counts: %q", got)
	}
	results := exprs(res, schemas.RefResult)
	if got := results["18:T"]; got != exprTypeVar+"^T" {
		t.Errorf("result of make: %q", got)
	}
}

func TestTypeName(t *testing.T) {
	for in, want := range map[string]string{
		"List<Map<String, Item>>":    "List",
		"java.util.Map.Entry<K, V>":  "java.util.Map.Entry",
		"@NonNull Item":              "Item",
		"java.util.@NonNull List<X>": "java.util.List",
		"String...":                  "String[]",
		"int[][]":                    "int[][]",
		"Outer<A>.Inner<B>":          "Outer.Inner",
		"A & B":                      "",
		"/* c */ Foo":                "Foo",
		"@A(x = \"(\") Foo":          "Foo",
	} {
		if got := typeName(in); got != want {
			t.Errorf("typeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJavadoc(t *testing.T) {
	for in, want := range map[string]string{
		"/** One line. */":                    "One line.",
		"/**\n * First.\n *\n * Second.\n */": "First.\n\nSecond.",
		"/** */":                              "",
		"/**/":                                "",
	} {
		got, _ := javadoc(in)
		if got != want {
			t.Errorf("javadoc(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRoots(t *testing.T) {
	for _, c := range []struct{ file, pkg, root, module string }{
		{"shop/src/main/java/com/x/A.java", "com.x", "shop/src/main/java", "shop"},
		{"src/test/java/com/x/A.java", "com.x", "src/test/java", ""},
		{"com/x/A.java", "com.x", ".", "."},
		{"lib/A.java", "", "lib", "lib"},
		{"odd/place/A.java", "com.x", "odd/place", "odd/place"},
	} {
		root, module := roots(c.file, c.pkg)
		if root != c.root || module != c.module {
			t.Errorf("roots(%s, %s) = %q, %q; want %q, %q", c.file, c.pkg, root, module, c.root, c.module)
		}
	}
}

func FuzzExtract(f *testing.F) {
	seeds := []string{
		"", "\x00", "class", "class A {", "class A { void f( { } }", "package ;", "import static ;", "import .*;",
		"class A { void f() { new B() { void g() { h(); } }; } }", "enum E { A { void f() {} }, B; E() {} }",
		"record R(int a) { R { } }", "class A<T extends A<T>> { T t; void f() { t.f(); } }",
		"@interface X { int v() default 1; }", "class A { void f() { for (var x : y) x.g(); } }",
		"class A { int a[], b; void f(String... s) { s[0].g(); this.<T>h(); A.super.f(); } }",
		"class A { void f() { o instanceof B b && b.f(); switch (x) { case C c -> c.f(); default -> {} } } }",
		"class A { void f() { Runnable r = () -> { class L { void g() { f(); } } }; } }",
		"module m { requires x; }", "class A { void f() { a.new B(); } }", "/** */ class A {}",
		"class A<T> { java.util.Map<? super T, List<? extends @N T>>[] m; void f(java.util.List<T> l) { l.forEach(x -> x.g()); f = b ? y -> y : (z) -> z; } }",
		"class A extends B<C<D>, ?> { List<<>> x; Map<,> y; List<? extends> z; Outer<A>.Inner<B> w; }",
	}
	languagetest.FuzzExtract(f, New(), nil, "p/A.java", seeds, nil, "../../testdata/java/shop/src/*/java/com/example/shop/*/*.java")
}

// corpus is the fixture's Java files, or those under $SNAP_JAVA_BENCH (a
// larger tree).
func corpus(b *testing.B) languagetest.Corpus {
	return languagetest.LoadCorpus(b, New(), "../../testdata/java/shop", "SNAP_JAVA_BENCH")
}

func BenchmarkExtract(b *testing.B) { languagetest.BenchmarkExtract(b, New(), corpus(b)) }

// BenchmarkParse is the bare parse of the same files, the yardstick of
// BenchmarkExtract.
func BenchmarkParse(b *testing.B) { languagetest.BenchmarkParse(b, New(), corpus(b)) }
