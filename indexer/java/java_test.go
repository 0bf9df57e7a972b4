package java_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/java"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/java/shop", "../../testdata/java/shop.golden.json", java.New())
}

// index indexes files (path → source) and returns the golden lines of its
// edges.
var index = languagetest.EdgesWith(java.New())

func TestOverloads(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Base.java": `package p;
class Base {
    void put(String k, int v) {}
    void put(String k, int v, int w) {}
}`,
		"p/A.java": `package p;
class A extends Base {
    void put(String k) {}
    void put(String k, int v) {}
    void log(String s) {}
    void log(String s, Object... args) {}
    void vary(int a) {}
    void vary(long... a) {}
    void one(Object o) {}
    void one(String s) {}

    void run() {
        put("a");
        put("a", 1);
        put("a", 1, 2);
        log("x");
        log("x", 1);
        log("x", 1, 2);
        vary(1);
        vary();
        one("s");
        put();
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.A.run -calls-> p.A.put (scope) p/A.java:13",
		"p.A.run -calls-> p.A.put (scope) p/A.java:14", // overrides Base.put(String, int)
		"p.A.run -calls-> p.Base.put (scope) p/A.java:15",
		"p.A.run -calls-> p.A.log (scope) p/A.java:16", // the fixed-arity one wins
		"p.A.run -calls-> p.A.log (scope) p/A.java:17",
		"p.A.run -calls-> p.A.log (scope) p/A.java:18",
		"p.A.run -calls-> p.A.vary (scope) p/A.java:19", // vary(int): strict before variable arity
		"p.A.run -calls-> p.A.vary (scope) p/A.java:20",
		"p.A.run -calls-> p.A.one (scope) p/A.java:21", // one(String), the most specific
		"p.A.run -calls-> ?put (unresolved: no overload of put with 0 arguments) p/A.java:22",
	}, "p.A.run -calls-> p.Base.put (scope) p/A.java:14")
}

func TestStaticImports(t *testing.T) {
	edges := index(t, map[string]string{
		"u/Util.java": `package u;
public class Util {
    public static int max(int a, int b) { return a; }
    public static int min(int a, int b) { return a; }
    public static final Util INSTANCE = new Util();
    public void hello() {}
}`,
		"u/More.java": `package u;
public class More {
    public static void twice(int a) {}
}`,
		"app/Main.java": `package app;

import static u.Util.max;
import static u.Util.INSTANCE;
import static u.More.*;
import static java.lang.Math.abs;
import static org.junit.Assert.*;

class Main {
    static int min(int a, int b) { return b; }

    void run() {
        max(1, 2);
        min(1, 2);
        twice(3);
        abs(-1);
        assertEquals(1, 2);
        INSTANCE.hello();
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"app.Main.run -calls-> u.Util.max (import)",
		"app.Main.run -calls-> app.Main.min (scope)",
		"app.Main.run -calls-> u.More.twice (import)",
		"app.Main.run -calls-> ?abs (unresolved: external type java.lang.Math)",
		"app.Main.run -calls-> ?assertEquals (unresolved: external type org.junit.Assert)",
		"app.Main.run -calls-> u.Util.hello (receiver)",
		"app/Main.java -imports-> u.Util.max (import)",
		"app/Main.java -imports-> u.Util.INSTANCE (import)",
		"app/Main.java -imports-> u.More (import)",
		"app/Main.java -imports-> ?java.lang.Math.abs (unresolved: external type java.lang.Math)",
	}, "app.Main.run -calls-> u.Util.min")
}

func TestInnerNestedLocalAnonymous(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Task.java": `package p;
public interface Task { void run(); default void log() {} }`,
		"p/Outer.java": `package p;

import java.util.TimerTask;

public class Outer {
    void save() {}
    static void helper() {}

    class Inner {
        void go() {
            save();
            Outer.this.save();
            helper();
        }
    }

    static class Nested {
        void go() { helper(); new Outer().save(); }
    }

    void start() {
        new Inner().go();
        Outer.Nested n = new Outer.Nested();
        n.go();
        class Local {
            void save() {}
            void go() { save(); }
        }
        new Local().go();
        Runnable r = new Runnable() {
            public void run() { save(); tick(); this.tick(); }
            void tick() {}
        };
        Task t = new Task() {
            public void run() { log(); save(); }
        };
        TimerTask tt = new TimerTask() {
            public void run() { save(); }
        };
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Outer.Inner.go -calls-> p.Outer.save (scope) p/Outer.java:11",
		"p.Outer.Inner.go -calls-> p.Outer.save (receiver) p/Outer.java:12",
		"p.Outer.Inner.go -calls-> p.Outer.helper (scope) p/Outer.java:13",
		"p.Outer.Nested.go -calls-> p.Outer.helper (scope)",
		"p.Outer.Nested.go -calls-> p.Outer.save (receiver)",
		"p.Outer.start -instantiates-> p.Outer.Inner (scope)",
		"p.Outer.start -calls-> p.Outer.Inner.go (receiver)",
		"p.Outer.start -instantiates-> p.Outer.Nested (scope)",
		"p.Outer.start -calls-> p.Outer.Nested.go (receiver)",
		"p.Outer.start.Local.go -calls-> p.Outer.start.Local.save (scope)",
		"p.Outer.start -calls-> p.Outer.start.Local.go (receiver)",
		// Runnable is known: save is the enclosing class's.
		"p.Outer.start.1.run -calls-> p.Outer.save (scope) p/Outer.java:31",
		"p.Outer.start.1.run -calls-> p.Outer.start.1.tick (scope) p/Outer.java:31",
		"p.Outer.start.1.run -calls-> p.Outer.start.1.tick (receiver) p/Outer.java:31",
		"p.Outer.start.2.run -calls-> p.Task.log (scope) p/Outer.java:35",
		"p.Outer.start.2.run -calls-> p.Outer.save (scope) p/Outer.java:35",
		// TimerTask is not known: it might declare save.
		"p.Outer.start.3.run -calls-> ?save (unresolved: external type java.util.TimerTask) p/Outer.java:38",
	}, "p.Outer.start.Local.go -calls-> p.Outer.save")
}

func TestReceivers(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Repo.java": `package p;
public class Repo {
    public Repo self() { return this; }
    public Item find(int id) { return null; }
    public Item[] all() { return null; }
    public void save(Item i) {}
}`,
		"p/Item.java": `package p;
public class Item { public void touch() {} public Item next; }`,
		"p/Base.java": `package p;
public class Base { protected Repo repo; public void close() {} }`,
		"p/Service.java": `package p;
import java.util.List;
public class Service extends Base {
    private final Repo other = new Repo();

    public void close() { super.close(); }

    public void run(Object o, List<Item> items) {
        repo.find(1).touch();
        this.repo.self().self().find(2).next.touch();
        other.all()[0].touch();
        var r = new Repo();
        r.find(3).touch();
        for (var i : r.all()) { i.touch(); }
        for (Item i : items) { i.touch(); }
        ((Repo) o).find(4);
        if (o instanceof Item it) { it.touch(); }
        items.forEach(x -> x.touch());
        Item repo = null;
        repo.touch();
        close();
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Service.run -calls-> p.Repo.find (receiver) p/Service.java:9",
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:9",
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:10",
		"p.Service.run -calls-> p.Repo.all (receiver) p/Service.java:11",
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:11",
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:13",
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:14",
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:15",
		"p.Service.run -calls-> p.Repo.find (receiver) p/Service.java:16",
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:17",
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:18", // List<Item>.forEach binds x to an Item
		"p.Service.run -calls-> p.Item.touch (receiver) p/Service.java:20", // the local hides the field
		"p.Service.run -calls-> p.Service.close (scope) p/Service.java:21",
		"p.Service.close -calls-> p.Base.close (receiver)",
	})
}

func TestGenericsAndTypeVariables(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Shape.java": `package p;
public interface Shape { double area(); }`,
		"p/T.java": `package p;
public class T { public void m() {} }`,
		"p/Box.java": `package p;
public class Box<T, S extends Shape> {
    private T value;
    private S shape;
    public T get() { return value; }
    void run() {
        value.m();
        shape.area();
        get().m();
    }
    <U extends Shape> void each(U u, T t) { u.area(); t.m(); }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Box.run -calls-> ?value.m (unresolved: type variable)",
		"p.Box.run -calls-> p.Shape.area (receiver)",
		"p.Box.run -calls-> ?get().m (unresolved: type variable)",
		"p.Box.each -calls-> p.Shape.area (receiver)",
		"p.Box.each -calls-> ?t.m (unresolved: type variable)",
	}, "p.Box.run -calls-> p.T.m", "p.Box.each -calls-> p.T.m")
}

func TestModulesAndDuplicates(t *testing.T) {
	edges := index(t, map[string]string{
		"a/src/main/java/com/x/Util.java":    "package com.x;\npublic class Util { public static void go() {} }\n",
		"b/src/main/java/com/x/Util.java":    "package com.x;\npublic class Util { public static void go() {} }\n",
		"a/src/main/java/com/x/App.java":     "package com.x;\nclass App { void run() { Util.go(); } }\n",
		"a/src/test/java/com/x/AppTest.java": "package com.x;\nclass AppTest { void run() { Util.go(); } }\n",
		"c/src/main/java/com/y/Use.java":     "package com.y;\nimport com.x.Util;\nclass Use { void run() { Util.go(); } }\n",
	})
	languagetest.Expect(t, edges, []string{
		"com.x.App.run -calls-> com.x.Util.go (scope) a/src/main/java/com/x/App.java:2",
		"com.x.AppTest.run -calls-> com.x.Util.go (scope) a/src/test/java/com/x/AppTest.java:2",
		"com.y.Use.run -calls-> ?Util.go (unresolved: 2 types named com.x.Util)",
	})
}

func TestInheritanceEdges(t *testing.T) {
	edges := index(t, map[string]string{
		"p/A.java": `package p;
import java.io.Serializable;
interface Named { String name(); }
interface Labeled extends Named, Comparable<Labeled> {}
enum Kind implements Named { ONE; public String name2() { return ""; } }
abstract class Shape implements Labeled, Serializable {}
class Square extends Shape { public String name() { return ""; } public int compareTo(Labeled o) { return 0; } }
record Point(int x, int y) implements Named { public String name() { return "p"; } }
`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Labeled -extends-> p.Named (scope)",
		"p.Labeled -extends-> ?Comparable<Labeled> (unresolved: external type java.lang.Comparable)",
		"p.Kind -implements-> p.Named (scope)",
		"p.Shape -implements-> p.Labeled (scope)",
		"p.Shape -implements-> ?Serializable (unresolved: external type java.io.Serializable)",
		"p.Square -extends-> p.Shape (scope)",
		"p.Point -implements-> p.Named (scope)",
	})
}

func TestRecordsAndEnums(t *testing.T) {
	edges := index(t, map[string]string{
		"p/P.java": `package p;
record Point(int x, int y) {
    Point(int x) { this(x, 0); }
    Point { }
    int sum() { return x() + y; }
}
enum Color {
    RED("r"), GREEN("g");
    private final String code;
    Color(String code) { this.code = code; }
    String code() { return code; }
    static Color of(String s) { return valueOf(s); }
}
class Use {
    void run() {
        new Point(1).sum();
        new Point(1, 2);
        Color.RED.code();
        Color.values();
        Point::x;
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Point.<init> -calls-> p.Point.<init> (scope) p/P.java:3",
		"p.Point.sum -calls-> p.Point.x (scope)",
		"p.Color.RED -calls-> p.Color.<init> (scope)",
		"p.Color.of -calls-> ?valueOf (unresolved: external type java.lang.Enum)",
		"p.Use.run -instantiates-> p.Point (scope) p/P.java:16",
		"p.Use.run -calls-> p.Point.sum (receiver) p/P.java:16",
		"p.Use.run -calls-> p.Color.code (receiver) p/P.java:18",
		"p.Use.run -calls-> ?Color.values (unresolved: external type java.lang.Enum) p/P.java:19",
	})
}

// TestInheritanceRules covers Java's rules of member inheritance that
// javac showed the resolver must follow (JLS 8.4.8, 15.12.2).
func TestInheritanceRules(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Coll.java": `package p;
public interface Coll { default int spliterator() { return 0; } static Coll of() { return null; } }`,
		"p/SetI.java": `package p;
public interface SetI extends Coll { default int spliterator() { return 1; } }`,
		"p/AbstractColl.java": `package p;
public abstract class AbstractColl implements Coll {
    private static boolean eq(Object a, Object b) { return true; }
    private static class Sub {}
    void size() {}
}`,
		"p/Impl.java": `package p;
public class Impl extends AbstractColl implements SetI {
    static boolean eq(Object a, Object b) { return false; }
    static class Sub { void go() {} }
    static class Inner extends AbstractColl {
        void run() {
            eq(1, 2);        // AbstractColl.eq is private: not inherited
            new Sub().go();  // nor is AbstractColl.Sub
        }
    }
    void run() {
        spliterator();       // SetI's default overrides Coll's
        SetI.super.spliterator();
        of();                // static interface methods are not inherited
    }
}`,
		"q/Other.java": `package q;
import p.*;
public class Other extends AbstractColl { void run() { size(); } }`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Impl.Inner.run -calls-> p.Impl.eq (scope)",
		"p.Impl.Inner.run -instantiates-> p.Impl.Sub (scope)",
		"p.Impl.Inner.run -calls-> p.Impl.Sub.go (receiver)",
		"p.Impl.run -calls-> p.SetI.spliterator (scope) p/Impl.java:12",
		"p.Impl.run -calls-> p.SetI.spliterator (receiver) p/Impl.java:13",
		"p.Impl.run -calls-> ?of (unresolved: unknown method of)",
		"q.Other.run -calls-> ?size (unresolved: unknown method size)", // package-private in another package
	}, "p.Impl.Inner.run -calls-> p.AbstractColl.eq", "p.Impl.run -calls-> p.Coll.spliterator", "p.Impl.run -calls-> p.Coll.of")
}

func TestImplicitMembers(t *testing.T) {
	edges := index(t, map[string]string{
		"p/P.java": `package p;
enum Version {
    V1, V2;
    static Version valueOf(Runtime.Version v) { return V1; }
    static Version parse(String s) { return valueOf(s); }
}
record Key(Class<?> type, String name) {
    Key(String name) { this(Object.class, name); }
    Key(java.lang.invoke.MethodHandle h, String name) { this(h.type().returnType(), name); }
}
record Pair(int a, int b) implements java.util.Map.Entry<Integer, Integer> {
    public Integer getKey() { return a; }
}
class Item {
    public boolean equals(Item other) { return true; }
    void use(Item i, Object o) {
        new Key("x");
        new Key(Object.class, "y");
        i.equals(o);
        toString();
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Version.parse -calls-> ?valueOf (ambiguous: ambiguous overload)", // the implicit valueOf(String) too
		"p.Key.<init> -calls-> ?this (ambiguous: ambiguous overload) p/P.java:8",
		"p.Item.use -calls-> p.Key.<init> (scope) p/P.java:17",
		"p.Item.use -calls-> ?new Key (ambiguous: ambiguous overload) p/P.java:18",
		"p.Item.use -calls-> ?i.equals (ambiguous: ambiguous overload)", // equals(Item) or Object's equals(Object)
		"p.Item.use -calls-> ?toString (unresolved: external type java.lang.Object)",
	})
}

func TestTypeVariablesThroughSubclasses(t *testing.T) {
	edges := index(t, map[string]string{
		"p/H.java": `package p;
public interface H { void done(); }`,
		"p/Fixed.java": `package p;
public class Fixed implements H { public void done() {} public void fixed() {} }`,
		"p/Reader.java": `package p;
public abstract class Reader<T extends H> {
    protected T header;
    public T getHeader() { return header; }
    void check() { header.done(); getHeader().done(); this.header.done(); }
}`,
		"p/FixedReader.java": `package p;
public class FixedReader extends Reader<Fixed> {
    void run(FixedReader other) {
        header.done();          // T is Fixed here: Fixed.done, not H.done
        getHeader().done();
        other.getHeader().done();
    }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Reader.check -calls-> p.H.done (receiver) p/Reader.java:5",
		// T is Fixed through FixedReader's superclass Reader<Fixed>.
		"p.FixedReader.run -calls-> p.Fixed.done (receiver) p/FixedReader.java:4",
		"p.FixedReader.run -calls-> p.Fixed.done (receiver) p/FixedReader.java:5",
		"p.FixedReader.run -calls-> p.Fixed.done (receiver) p/FixedReader.java:6",
	}, "p.FixedReader.run -calls-> p.H.done")
}

func TestSmallThings(t *testing.T) {
	edges := index(t, map[string]string{
		"Top.java": `class Top { static void go() {} }`,
		"Use.java": `class Use { void run(Top t) { Top.go(); (t == null ? new Top() : t).go(); } }`,
		"a/Hidden.java": `package a;
class FileSystem { static void x() {} }`,
		"b/FileSystem.java": `package b;
public class FileSystem { public static void y() {} }`,
		"c/Use.java": `package c;
import a.*;
import b.*;
class Use { void run() { FileSystem.y(); } }`,
		"p/Builder.java": `package p;
class Builder {
    Builder with(int a) { return this; }
    Builder with(String s) { return this; }
    void build() {}
    void run() { with(1).with("x").build(); }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"Use.run -calls-> Top.go (scope) Use.java:1", // the unnamed package
		"Use.run -calls-> Top.go (receiver) Use.java:1",
		"c.Use.run -calls-> b.FileSystem.y (import)",                     // a.FileSystem is not public
		"p.Builder.run -calls-> p.Builder.with (scope) p/Builder.java:6", // by the argument's type
		"p.Builder.run -calls-> p.Builder.build (receiver)",              // both withs return Builder
	})
}

// TestIncremental checks that rows reused from a base snapshot resolve
// as a parse of the same files does.
func TestIncremental(t *testing.T) {
	root := t.TempDir()
	src := "../../testdata/java/shop"
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	run := func(base *indexer.Base) *indexer.Graph {
		g, err := indexer.Index(context.Background(), root, indexer.Options{Languages: []indexer.Language{java.New()}, Workers: 2, Base: base})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	first := run(nil)
	money := filepath.Join(root, "src/main/java/com/example/shop/model/Money.java")
	data, _ := os.ReadFile(money)
	edited := strings.Replace(string(data), "public Money times(int factor) {", "public Money times(int factor, int divisor) {\n        return times(factor);\n    }\n\n    public Money times(int factor) {", 1)
	if err := os.WriteFile(money, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	full := run(nil)
	incr := run(&indexer.Base{Files: first.Files, Nodes: first.Nodes, Refs: first.Refs, Grammars: map[string]string{java.Name: java.New().GrammarVersion()}})
	if incr.Stats.FilesReused == 0 || incr.Stats.FilesParsed != 1 {
		t.Fatalf("parsed %d files, reused %d", incr.Stats.FilesParsed, incr.Stats.FilesReused)
	}
	if !reflect.DeepEqual(full.Nodes, incr.Nodes) || !reflect.DeepEqual(full.Edges, incr.Edges) || !reflect.DeepEqual(full.Refs, incr.Refs) {
		t.Errorf("incremental rows differ from a full index:\n%s", diff(languagetest.Render(full).Edges, languagetest.Render(incr).Edges))
	}
	languagetest.Expect(t, languagetest.Render(incr).Edges, []string{
		"com.example.shop.model.Money.times -calls-> com.example.shop.model.Money.times (scope)",
		"com.example.shop.model.Item.priceFor -calls-> com.example.shop.model.Money.times (receiver)",
	})
}

// TestInstanceInitializer holds a class with an instance initializer
// block to its members: the block is code of the class, not a scope that
// hides the fields and methods around it.
func TestInstanceInitializer(t *testing.T) {
	g := languagetest.Index(t, map[string]string{"p/Reader.java": `package p;
public class Reader {
  private int[] stack = new int[32];
  private int size = 0;
  {
    stack[size++] = 1;
    reset();
  }
  static { init(); }
  static void init() {}
  void reset() {}
  int peek() { return stack[size - 1]; }
}`}, java.New())
	got := languagetest.Render(g)
	for _, want := range []string{"field p.Reader.stack ", "field p.Reader.size ", "method p.Reader.reset ", "method p.Reader.peek ", "method p.Reader.init "} {
		if !slices.ContainsFunc(got.Nodes, func(n string) bool { return strings.HasPrefix(n, want) }) {
			t.Errorf("no node %q in\n%s", want, strings.Join(got.Nodes, "\n"))
		}
	}
	languagetest.Expect(t, got.Edges, []string{"p.Reader -calls-> p.Reader.reset (", "p.Reader -calls-> p.Reader.init ("})
}

// TestConstructorReferenceUnderAField: the left of X::new is a type, even
// where a field of the same name hides the type in expressions.
func TestConstructorReferenceUnderAField(t *testing.T) {
	g := languagetest.Index(t, map[string]string{
		"p/URL.java": "package p;\npublic class URL { public URL(String s) {} }\n",
		"p/Converter.java": `package p;
public interface Converter<T> {
  T apply(String s);
  Converter<URL> URL = URL::new;
}`}, java.New())
	got := languagetest.Render(g)
	languagetest.Expect(t, got.Edges, []string{"p.Converter.URL -references-> p.URL.<init> (scope) p/Converter.java:4"})
}

// TestImplicitSuper checks the calls of the superclass's constructor a
// constructor makes when it calls no other, and a class's implicit
// default constructor makes.
func TestImplicitSuper(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Base.java": `package p;
class Base {
    Base() {}
    Base(int x) {}
}`,
		"p/A.java": `package p;
class A extends Base {
    A() {}
    A(int x) { super(x); }
    A(String s) { this(); }
}`,
		"p/B.java": `package p;
public class B extends Base {
}`,
		"p/C.java": `package p;
class C {
    C() {}
}`,
		"p/D.java": `package p;
class D extends java.util.AbstractList<String> {
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.A.<init> -calls-> p.Base.<init> (scope) p/A.java:3",
		"p.A.<init> -calls-> p.Base.<init> (scope) p/A.java:4",
		"p.A.<init> -calls-> p.A.<init> (scope) p/A.java:5",
		"p.B -calls-> p.Base.<init> (scope) p/B.java:2",
		"p.D -calls-> ?super (unresolved: external type java.util.AbstractList) p/D.java:2",
	}, "p.C.<init> -calls-> ?super", "p.A.<init> -calls-> p.Base.<init> (scope) p/A.java:5")
}

// TestEnclosingPastKnownSupertypes checks that an unqualified call in a
// class whose supertypes are JDK types of known members is looked up in
// the enclosing classes and static imports when those members do not
// have the name, and goes to the JDK when they do.
func TestEnclosingPastKnownSupertypes(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Tree.java": `package p;
import java.util.AbstractSet;
import java.util.Iterator;
import static p.Util.helper;
class Tree {
    Object lookupKey(Object k) { return k; }
    int size() { return 0; }
    class KeyView extends AbstractSet<Object> {
        public boolean contains(Object o) { return lookupKey(o) != null; }
        public Iterator<Object> iterator() { return null; }
        public int size() { return 0; }
        void touch() { helper(); isEmpty(); }
    }
    class Other extends java.util.Unknown {
        void touch() { lookupKey(null); }
    }
}`,
		"p/Util.java": `package p;
class Util { static void helper() {} }`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Tree.KeyView.contains -calls-> p.Tree.lookupKey (scope) p/Tree.java:9",
		"p.Tree.KeyView.touch -calls-> p.Util.helper (import) p/Tree.java:12",
		"p.Tree.KeyView.touch -calls-> ?isEmpty (unresolved: external type java.util.AbstractSet) p/Tree.java:12",
		"p.Tree.Other.touch -calls-> ?lookupKey (unresolved: external type java.util.Unknown) p/Tree.java:15",
	})
}

// TestConcreteOverAbstract checks that a class's concrete method is
// preferred to the abstract one of an interface it implements, as javac
// does, through the receiver and unqualified.
func TestConcreteOverAbstract(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Task.java": `package p;
interface Task { void run(String s); void run(Object o); }`,
		"p/Base.java": `package p;
abstract class Base { public void run(String s) {} }`,
		"p/Job.java": `package p;
class Job extends Base implements Task {
    public void run(Object o) {}
    void go(Job j) { j.run("x"); run("y"); j.run(1); }
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.Job.go -calls-> p.Base.run (receiver) p/Job.java:4",
		"p.Job.go -calls-> p.Base.run (scope) p/Job.java:4",
		"p.Job.go -calls-> p.Job.run (receiver) p/Job.java:4",
	}, "p.Job.go -calls-> p.Task.run", "p.Job.go -calls-> ?run")
}

// TestLambdaParameters checks that the parameters of a lambda that
// initializes a variable of a JDK functional interface type are typed by
// its type arguments, when the interface's name is proven to be the
// JDK's.
func TestLambdaParameters(t *testing.T) {
	edges := index(t, map[string]string{
		"p/Item.java": `package p;
class Item { String name() { return ""; } boolean ok(Item other) { return true; } }`,
		"p/A.java": `package p;
import java.util.function.Function;
import java.util.function.*;
class A {
    static final Function<Item, String> NAME = i -> i.name();
    void run() {
        BiPredicate<? super Item, Item> same = (a, b) -> a.ok(b);
        Consumer<Item> raw = x -> x.name();
        Supplier<Item> s = () -> null;
    }
}`,
		"p/B.java": `package p;
import java.util.function.*;
import q.*;
class B {
    Function<Item, String> f = i -> i.name();
}`,
		"p/C.java": `package p;
import java.util.function.Function;
class C {
    interface Function<T, R> { R apply(String s, T t); }
    Function<Item, String> f = i -> i.name();
}`,
	})
	languagetest.Expect(t, edges, []string{
		"p.A.NAME -calls-> p.Item.name (receiver) p/A.java:5",
		"p.A.run -calls-> p.Item.ok (receiver) p/A.java:7",
		"p.A.run -calls-> p.Item.name (receiver) p/A.java:8",                    // java.util.function.* is the only on-demand import outside
		"p.B.f -calls-> ?i.name (unresolved: unknown receiver type) p/B.java:5", // q.* might hold a Function
		"p.C.f -calls-> ?i.name (unresolved: unknown receiver type) p/C.java:5", // C.Function hides the import
	})
}

// TestEnumConstantBody: the methods and fields of an enum constant's body
// are nodes under the constant, the sources of the calls in them. A call
// on the enum goes to the enum's own method, and an unqualified call in
// the body to a method the body declares stays unresolved.
func TestEnumConstantBody(t *testing.T) {
	g := languagetest.Index(t, map[string]string{"p/Op.java": `package p;
enum Op {
    PLUS {
        private int calls;
        int apply(int a, int b) { calls++; return twice(a) + b; }
        int twice(int a) { return a * 2; }
        int again(int a) { return apply(a, a); }
    },
    MINUS {
        int apply(int a, int b) { return a - b + helper(); }
    };
    abstract int apply(int a, int b);
    int helper() { return 0; }
}
class Use {
    int run(Op op) { return op.apply(1, 2); }
}`}, java.New())
	got := languagetest.Render(g)
	for _, want := range []string{
		"method p.Op.PLUS.apply p/Op.java:5 [in=p.Op.PLUS internal ",
		"method p.Op.PLUS.twice p/Op.java:6 [in=p.Op.PLUS internal ",
		"method p.Op.MINUS.apply p/Op.java:10 [in=p.Op.MINUS internal ",
		"field p.Op.PLUS.calls p/Op.java:4 [in=p.Op.PLUS private ",
	} {
		if !slices.ContainsFunc(got.Nodes, func(n string) bool { return strings.HasPrefix(n, want) }) {
			t.Errorf("no node %q in\n%s", want, strings.Join(got.Nodes, "\n"))
		}
	}
	params := 0
	for _, r := range g.Refs {
		if r.Kind == schemas.RefParams && r.Expr == "int,int" {
			params++
		}
	}
	if params != 3 { // the abstract method's and the two bodies'
		t.Errorf("%d params facts int,int, want 3", params)
	}
	languagetest.Expect(t, got.Edges, []string{
		"p.Op.PLUS.apply -calls-> ?twice (unresolved: member of an anonymous class)",
		"p.Op.PLUS.again -calls-> ?apply (unresolved: member of an anonymous class)",
		"p.Op.MINUS.apply -calls-> p.Op.helper (scope)",
		"p.Use.run -calls-> p.Op.apply (receiver)",
	}, "p.Op.PLUS -calls-> ?", "p.Op.MINUS -calls-> p.Op.helper", "p.Use.run -calls-> p.Op.PLUS", "p.Use.run -calls-> p.Op.MINUS")
}
