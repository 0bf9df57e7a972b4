package swift_test

import (
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/swift"
)

const overloads = `class Animal {}
class Dog: Animal {}
protocol Named {}
struct Tag: Named {}
func name() -> String { "" }
struct Box {
    let title: String
    func f(_ x: Int) {}
    func f(_ x: Double) {}
    func f(_ x: String) {}
    func g(_ x: Double) {}
    func g(_ x: String) {}
    func h(_ x: Int?) {}
    func h(_ x: String) {}
    func k(_ x: Animal) {}
    func k(_ x: Dog) {}
    func n(_ x: Named) {}
    func n(_ x: Int) {}
    func o(_ x: Int) {}
    func o(_ x: Int?) {}
    func p(_ x: Any) {}
    func p(_ x: Double) {}
    func q<T>(_ x: T) {}
    func q(_ x: Int) {}
    func c(_ x: () -> Void) {}
    func c(_ x: Int) {}
    func m(_ x: Data, name: String, mime: String? = nil) {}
    func m(_ x: URL, name: String) {}
    func v(_ x: Int, y: Int = 0) {}
    func v(_ x: Int) {}
    init(a: Int) {}
    init(a: String) {}
}
extension Tag {
    func me(b: Box) { b.n(self) }
}
`

// TestArgumentTypesSelectOverloads checks that overloads taking the same
// labels are told apart by the types of the arguments, one form of
// argument per call.
func TestArgumentTypesSelectOverloads(t *testing.T) {
	calls := []struct{ call, want string }{
		{"b.f(1)", "func f(_ x: Int)"}, // a literal's default type first
		{"b.f(1.5)", "func f(_ x: Double)"},
		{`b.f("x")`, "func f(_ x: String)"},
		{"b.g(1)", "func g(_ x: Double)"}, // an integer literal adapts
		{"b.h(nil)", "func h(_ x: Int?)"},
		{"b.h(s)", "func h(_ x: String)"},
		{"b.k(d)", "? ambiguous overload"}, // d may be optional
		{"b.n(Tag())", "func n(_ x: Named)"},
		{"b.n(i)", "? ambiguous overload"}, // an extension may conform Int
		{"b.o(i)", "? ambiguous overload"},
		{"b.o(1)", "func o(_ x: Int)"},
		{"b.p(1)", "? ambiguous overload"},
		{"b.q(1)", "? ambiguous overload"},
		{"b.c({})", "func c(_ x: () -> Void)"},
		{"b.f(u)", "? ambiguous overload"},
		{"b.f(1 as Double)", "func f(_ x: Double)"},
		{"b.f(s.count)", "? ambiguous overload"},
		{"b.f(name())", "func f(_ x: String)"},
		{"b.f(b.title)", "func f(_ x: String)"},
		{"b.m(data, name: \"a\")", "func m(_ x: Data, name: String, mime: String? = nil)"},
		{"b.m(url, name: \"a\")", "func m(_ x: URL, name: String)"},
		{"b.v(1)", "? ambiguous overload"}, // defaults are not ranked
		{"_ = Box(a: 1)", "init(a: Int)"},
	}
	var src strings.Builder
	src.WriteString(overloads)
	src.WriteString("func use(b: Box, d: Dog, s: String, i: Int, u: Undeclared, data: Data, url: URL) {\n")
	first := strings.Count(overloads, "\n") + 2
	for _, c := range calls {
		src.WriteString("    " + c.call + "\n")
	}
	src.WriteString("}\n")
	got := calledSignatures(t, map[string]string{"A.swift": src.String()})
	for i, c := range calls {
		if g := got[first+i]; g != c.want {
			t.Errorf("%s: got %q, want %q", c.call, g, c.want)
		}
	}
	if g := got[strings.Count(overloads[:strings.Index(overloads, "b.n(self)")], "\n")+1]; g != "func n(_ x: Named)" {
		t.Errorf("b.n(self): got %q", g)
	}
}

// calledSignatures indexes files and returns, by line, the signature of
// the function or initializer the line's first call resolved to, or "?"
// and the reason it did not.
func calledSignatures(t *testing.T, files map[string]string) map[int]string {
	t.Helper()
	out := make(map[int]string)
	col := make(map[int]uint32)
	for _, c := range languagetest.Calls(t, files, swift.New()) {
		if first, ok := col[c.Line]; ok && first <= c.Col {
			continue
		}
		col[c.Line] = c.Col
		out[c.Line] = c.Signature
	}
	return out
}
