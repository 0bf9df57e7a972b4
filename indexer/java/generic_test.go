package java_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

// genericBase are the types the generics tests call: Foo and its
// subclass Sub both override toString, so that a call on a value whose
// type is erased to Object must not reach them.
var genericBase = map[string]string{
	"p/Base.java": `package p;
public class Base { public void base() {} }`,
	"p/Foo.java": `package p;
public class Foo extends Base { public void bar() {} public String toString() { return ""; } }`,
	"p/Sub.java": `package p;
public class Sub extends Foo { public void bar() {} public String toString() { return "s"; } }`,
}

func genericFiles(files map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range genericBase {
		out[k] = v
	}
	for k, v := range files {
		out[k] = v
	}
	return out
}

func TestGenericsOfTheJDK(t *testing.T) {
	edges := index(t, genericFiles(map[string]string{
		"p/Use.java": `package p;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
class Use {
    List<Foo> foos;
    void run(Map<String, Foo> m, Optional<Foo> o, Iterator<Foo> it, ArrayList<List<Foo>> nested) {
        foos.get(0).bar();
        m.get("k").bar();
        for (Map.Entry<String, Foo> e : m.entrySet()) { e.getValue().bar(); }
        for (var e : m.entrySet()) { e.getValue().bar(); }
        for (var f : m.values()) { f.bar(); }
        o.get().bar();
        o.orElse(null).bar();
        it.next().bar();
        nested.get(0).get(1).bar();
        Objects.requireNonNull(foos.get(0)).bar();
        Collections.unmodifiableList(foos).get(0).bar();
        foos.forEach(f -> f.bar());
        m.forEach((k, v) -> v.bar());
        foos.stream().filter(f -> f != null).findFirst().get().bar();
        var copy = new ArrayList<Sub>();
        copy.get(0).bar();
    }
}`,
	}))
	languagetest.Expect(t, edges, []string{
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:12",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:13",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:14",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:15",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:16",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:17",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:18",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:19",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:20",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:21",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:22",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:23",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:24",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:25",
		"p.Use.run -calls-> p.Sub.bar (receiver) p/Use.java:27",
	}, "p.Use.run -calls-> p.Sub.bar (receiver) p/Use.java:12")
}

// TestGenericsErased: raw types, ? super and unbound type variables give
// no type, and a JDK method's result is not guessed.
func TestGenericsErased(t *testing.T) {
	edges := index(t, genericFiles(map[string]string{
		"p/G.java": `package p;
import java.util.List;
class G<T> {
    List<Foo> foos;
    T value;
    T get() { return value; }
}`,
		"p/Use.java": `package p;
import java.util.List;
class Use {
    <X extends Foo> void run(List raw, List<? super Foo> sup, List<?> any, G raw2, List<? extends Foo> ext, List<X> xs, G<Sub> g) {
        raw.get(0).toString();
        sup.get(0).toString();
        any.get(0).toString();
        raw2.foos.get(0).toString();
        raw2.get().toString();
        ext.get(0).bar();
        xs.get(0).bar();
        g.get().bar();
        g.value.bar();
        g.foos.get(0).bar();
        sup.remove(0).toString();
    }
}`,
	}))
	languagetest.Expect(t, edges, []string{
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:10", // ? extends Foo reads as Foo
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:11", // X's bound
		"p.Use.run -calls-> p.Sub.bar (receiver) p/Use.java:12",
		"p.Use.run -calls-> p.Sub.bar (receiver) p/Use.java:13",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:14",
	}, "p.Use.run -calls-> p.Foo.toString", "p.Use.run -calls-> p.Sub.toString")
}

func TestGenericsOfTheSnapshot(t *testing.T) {
	edges := index(t, genericFiles(map[string]string{
		"p/Holder.java": `package p;
import java.util.List;
public class Holder<T extends Base> {
    List<T> items;
    T first() { return items.get(0); }
    void check() { first().base(); items.get(0).base(); }
}`,
		"p/Pair.java": `package p;
public class Pair<K, V> {
    K key; V value;
    public K key() { return key; }
    public V value() { return value; }
}`,
		"p/Named.java": `package p;
public class Named<V> extends Pair<String, V> {}`,
		"p/FooList.java": `package p;
import java.util.ArrayList;
public class FooList extends ArrayList<Foo> {}`,
		"p/FooSupplier.java": `package p;
import java.util.function.Supplier;
public class FooSupplier implements Supplier<Foo> { public Foo get() { return null; } }`,
		"p/Mixed.java": `package p;
import java.util.function.Supplier;
public abstract class Mixed extends com.lib.Thing implements Supplier<Foo> {}`,
		"p/Use.java": `package p;
class Use {
    void run(Holder<Sub> h, Named<Foo> n, FooList l, FooSupplier s, Mixed mixed) {
        h.first().bar();
        h.items.get(0).bar();
        n.value().bar();
        l.get(0).bar();
        for (var f : l) { f.bar(); }
        s.get().bar();
        mixed.get().bar();
    }
}`,
	}))
	languagetest.Expect(t, edges, []string{
		"p.Holder.check -calls-> p.Base.base (receiver) p/Holder.java:6", // T's bound, through this
		"p.Use.run -calls-> p.Sub.bar (receiver) p/Use.java:4",
		"p.Use.run -calls-> p.Sub.bar (receiver) p/Use.java:5",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:6",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:7",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:8",
		"p.Use.run -calls-> p.FooSupplier.get (receiver) p/Use.java:9",
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:9",
	},
		// Thing, outside the snapshot, may declare get() with a narrower result.
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:10")
}

// TestLambdaTargets: the parameters of a lambda assigned to a variable
// of a JDK functional interface type, or chosen by a conditional, are its
// type arguments.
func TestLambdaTargets(t *testing.T) {
	edges := index(t, genericFiles(map[string]string{
		"p/Use.java": `package p;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
class Use {
    private BiFunction<Foo, Sub, String> format;
    private Consumer<? super Sub> sink;
    Function<?, String> any;
    void run(boolean b, Function<Foo, String> given) {
        this.format = b ? null : (f, s) -> { f.bar(); s.bar(); return ""; };
        sink = x -> x.bar();
        Function<Foo, String> g = b ? given : (x -> { x.bar(); return ""; });
        any = x -> x.toString();
    }
}`,
	}))
	languagetest.Expect(t, edges, []string{
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:10",
		"p.Use.run -calls-> p.Sub.bar (receiver) p/Use.java:10",
		"p.Use.run -calls-> p.Sub.bar (receiver) p/Use.java:11", // ? super Sub: a Sub (JLS 9.9)
		"p.Use.run -calls-> p.Foo.bar (receiver) p/Use.java:12",
	}, "p.Use.run -calls-> p.Foo.toString", "p.Use.run -calls-> p.Sub.toString")
}

// TestOverridesThroughTypeArguments: a method whose parameter the
// superclass types by its type variable is overridden by one taking the
// type argument the subclass binds it to, and by no other.
func TestOverridesThroughTypeArguments(t *testing.T) {
	edges := index(t, genericFiles(map[string]string{
		"p/Adapter.java": `package p;
public class Adapter<T> { public void write(StringBuilder out, T value) {} }`,
		"p/FooAdapter.java": `package p;
public class FooAdapter extends Adapter<Foo> { public void write(StringBuilder out, Foo value) {} }`,
		"p/Other.java": `package p;
public class Other extends Adapter<Sub> { public void write(StringBuilder out, Foo value) {} }`,
		"p/Use.java": `package p;
class Use {
    void run(FooAdapter a, Other o, Foo f, Sub s) {
        a.write(null, f);
        a.write(null, s);
        o.write(null, s);
    }
}`,
	}))
	languagetest.Expect(t, edges, []string{
		"p.Use.run -calls-> p.FooAdapter.write (receiver) p/Use.java:4",
		"p.Use.run -calls-> p.FooAdapter.write (receiver) p/Use.java:5",
	},
		"p.Use.run -calls-> p.Adapter.write (receiver) p/Use.java:4",
		"p.Use.run -calls-> p.Adapter.write (receiver) p/Use.java:5",
		// Other.write(Foo) overloads Adapter<Sub>.write(Sub), the more specific.
		"p.Use.run -calls-> p.Other.write (receiver) p/Use.java:6")
}

// TestUnboundedTypeVariableArguments: a value of a type variable with no
// bound is an Object, and no Supplier, as an argument; one bounded by
// Supplier takes both, Supplier<T> the more specific.
func TestUnboundedTypeVariableArguments(t *testing.T) {
	got := calledSignatures(t, map[string]string{
		"p/Line.java": `package p;
import java.util.function.Supplier;
class Line {
    <T> T value(String name, Supplier<T> d) { return null; }
    <T> T value(String name, T d) { return null; }
    <T> T one(T d) { return value("a", d); }
    <T extends Supplier<String>> T two(T d) { return value("b", d); }
    <T> T[] three(T[] d) { return value("c", d); }
}`,
	})
	for at, want := range map[string]string{
		"6 value": "<T> T value(String name, T d)",
		"7 value": "<T> T value(String name, Supplier<T> d)",
		"8 value": "<T> T value(String name, T d)", // T[] is an Object[], and an Object
	} {
		if got[at] != want {
			t.Errorf("%s: called %q, want %q", at, got[at], want)
		}
	}
}
