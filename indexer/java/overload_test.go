package java_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/java"
	"github.com/graphsnap/snap/indexer/languagetest"
)

// calledSignatures indexes files and returns, by line and callee as
// written, the signature of the method or constructor each call resolved
// to, or "?" and the reason it did not.
func calledSignatures(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	out := make(map[string]string)
	for _, c := range languagetest.Calls(t, files, java.New()) {
		out[fmt.Sprintf("%d %s", c.Line, c.Target)] = c.Signature
	}
	return out
}

// TestOverloadsByType checks that overloads of one arity are told apart
// by the types of the arguments, one form of argument per call.
func TestOverloadsByType(t *testing.T) {
	calls := []struct{ call, want string }{
		{"m(1)", "void m(int x)"},
		{"m(1L)", "void m(long x)"},
		{"m(1.5f)", "void m(double x)"}, // float widens to double
		{"m('c')", "void m(char x)"},
		{"m(count)", "void m(int x)"},
		{"m(name)", "void m(String s)"},
		{"m(label())", "void m(String s)"},
		{"m(\"a\" + count)", "void m(String s)"},
		{"m(n + 1L)", "void m(long x)"},
		{"m(count + 1L)", "? ambiguous overload"}, // a field's type is known at resolution only
		{"m(names[0])", "void m(String s)"},
		{"m(sh)", "void m(int x)"}, // short widens to int
		{"m((Object) name)", "void m(Object o)"},
		{"m(new A(1))", "void m(A a)"},
		{"m(this)", "void m(A a)"},
		{"m(base)", "void m(Base b)"}, // inherited
		{"m(new int[3])", "void m(int[] xs)"},
		{"m(null)", "? ambiguous overload"}, // m(String), m(A), m(int[]) are not related
		{"b(1)", "void b(Integer x)"},       // boxing
		{"v(\"a\", 1)", "void v(String s, Object... rest)"},
		{"v(\"a\", \"b\")", "void v(String s, String t)"},
		{"new A(\"s\")", "A(String s)"},
		{"new A(-2)", "A(int x)"},
		{"m(list)", "void m(Object o)"},         // a List is an Object, and no other type here
		{"m(() -> {})", "void m(Runnable r)"},   // the one functional interface
		{"m(ext)", "? ambiguous overload"},      // a type outside the snapshot may be a Runnable
		{"m(text)", "void m(Object o)"},         // but not a String, which is final
		{"m(\"a\".trim())", "void m(String s)"}, // a JDK method's known result
		{"m(name.length())", "void m(int x)"},
		{"g(name)", "void g(CharSequence s)"},                                // String has no supertype named Buffer
		{"m(list.get(0))", "void m(String s)"},                               // List<String>.get
		{"m(atomic.get())", "void m(long x)"},                                // a JDK method's known result
		{"m(url == null ? null : url.toExternalForm())", "void m(String s)"}, // and another
		{"m(Long.MAX_VALUE)", "void m(long x)"},                              // a JDK constant
		{"m(Short.MIN_VALUE)", "void m(int x)"},
		{"m(n > 0 ? 1 : 0)", "void m(int x)"}, // both branches are ints
		{"m(n > 0 ? 1 : 0L)", "? ambiguous overload"},
	}
	var body strings.Builder
	for _, c := range calls {
		body.WriteString("        " + c.call + ";\n")
	}
	const head = 27 // the line of the first call
	got := calledSignatures(t, map[string]string{
		"p/Base.java": `package p;
class Base {
    void m(Base b) {}
}`,
		"p/A.java": `package p;
import q.Ext;
import java.nio.*;
class A extends Base {
    int count;
    String name;
    String label() { return ""; }
    void m(int x) {}
    void m(long x) {}
    void m(double x) {}
    void m(char x) {}
    void m(String s) {}
    void m(Object o) {}
    void m(A a) {}
    void m(int[] xs) {}
    void m(Runnable r) {}
    void g(CharSequence s) {}
    void g(Buffer b) {}
    void b(Integer x) {}
    void b(String s) {}
    void v(String s, Object... rest) {}
    void v(String s, String t) {}
    A(int x) {}
    A(String s) {}
    void run(short sh, int n, Base base, String[] names, java.util.List<String> list, Ext ext, CharSequence text,
            java.util.concurrent.atomic.AtomicLong atomic, java.net.URL url) {
` + body.String() + `    }
}`,
	})
	for i, c := range calls {
		name := c.call[:strings.IndexByte(c.call, '(')]
		if g := got[fmt.Sprintf("%d %s", head+i, name)]; g != c.want {
			t.Errorf("%s: called %q, want %q", c.call, g, c.want)
		}
	}
}
