package python

import (
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

func TestModuleName(t *testing.T) {
	tree := &indexer.Tree{Paths: map[string]bool{
		"a/b/__init__.py": true, "a/b/c.py": true, "src/pkg/__init__.pyi": true, "src/pkg/m.py": true,
	}}
	for file, want := range map[string]string{
		"a/b/c.py":             "b.c",
		"a/b/__init__.py":      "b",
		"a/x.py":               "x",
		"top.py":               "top",
		"src/pkg/m.py":         "pkg.m",
		"src/pkg/__init__.pyi": "pkg",
		"__init__.py":          "__init__",
	} {
		if got, _ := moduleName(tree, file); got != want {
			t.Errorf("moduleName(%s) = %s, want %s", file, got, want)
		}
	}
}

func TestExprs(t *testing.T) {
	tree := &indexer.Tree{Paths: map[string]bool{"pkg/__init__.py": true, "pkg/sub/__init__.py": true}}
	res := languagetest.Extract(t, New(), tree, "pkg/sub/mod.py", `
import os.path as osp
from . import sibling
from ..util import tool as t
from ...beyond import x

class C(Base):
    def m(self, a, b: "Repo", c: Optional[Conn] = None, *args):
        x = Foo()
        y = x.make()
        z = None
        z = Bar()
        w = 1 if a else 2
        v = a
        s = "a" "b"
        s.upper()
        x.go()
        y.go()
        z.go()
        w.go()
        v.go()
        b.save()
        c.close()
        self.helper().run()
        super().m()
        super(C, self).m()
        super(Other, self).m()
        osp.join("a", "b")
        t()
        [1][0].go()
        "".join([])
        (a or b)()
        await self.wait()

    @classmethod
    def k(cls):
        cls.build(
            1,
        ).go()

def outer():
    items = []
    def inner():
        items.append(1)
        outer()
    inner()
`)
	got := languagetest.Exprs(t, res, map[string]string{
		"imports os.path":            "os.path as osp",
		"imports .sibling":           "pkg.sub:sibling",
		"imports ..util.tool":        "pkg.util:tool as t",
		"imports ...beyond.x":        "...beyond:x",
		"extends Base":               "Base",
		"calls x.go":                 "Foo().go",
		"calls y.go":                 "Foo().make().go",
		"calls z.go":                 "Bar().go",
		"calls w.go":                 "?receiver",
		"calls s.upper":              "?literal",
		"calls v.go":                 "?receiver",
		"calls b.save":               "{Repo}.save",
		"calls c.close":              "{Conn}.close",
		"calls self.helper().run":    "self.helper().run",
		"calls super().m":            "super().m",
		"calls super(C, self).m":     "super().m",
		"calls super(Other, self).m": "?expr",
		"calls osp.join":             "osp.join",
		"calls t":                    "t",
		"calls [1][0].go":            "?subscript",
		`calls "".join`:              "?literal",
		"calls (a or b)":             "?expr",
		"calls self.wait":            "self.wait",
		"calls items.append":         "?literal",
		"calls outer":                "outer",
		"calls inner":                "inner",
	})
	if g := got["calls cls.build(1,).go"]; g != "cls.build().go" {
		t.Errorf("multi-line call: Expr %q (targets are written on one line)", g)
	}
}

func TestRegions(t *testing.T) {
	res := languagetest.Extract(t, New(), nil, "m.py", `
def f(xs):
    a()
    for x in xs:
        b()
        def g():
            c()
    try:
        d()
    except E:
        e()
    if xs:
        f1()
    elif xs:
        f2()
    else:
        f3()
    y = g1() if xs else g2()
    [h(x) for x in xs]
    while xs:
        i()
    xs and j()
`)
	languagetest.Regions(t, res, map[string]string{
		"a": "", "b": "loop", "c": "", "d": "try", "e": "", "f1": "cond", "f2": "cond", "f3": "cond",
		"g1": "cond", "g2": "cond", "h": "loop", "i": "loop", "j": "cond",
	})
}

func TestNodes(t *testing.T) {
	res := languagetest.Extract(t, New(), nil, "tests/test_x.py", `"""Module doc."""

MAX = 3
_hidden = 1


class TestThing(Base):
    """Tests.

    More.
    """

    count: int = 0

    def __init__(self):
        self.name = "x"
        self.name = "y"
        self._secret = 1

    @staticmethod
    def test_static():
        pass

    async def test_async(self, a,
                         b=2) -> None:
        def nested():
            pass

    def __repr__(self):
        return ""


def test_top():
    pass


def helper():
    pass
`)
	if !res.IsTest {
		t.Error("test file not marked as such")
	}
	check := languagetest.Nodes(t, res)
	check("test_x", schemas.KindModule, func(n schemas.Node) bool { return n.Doc == "Module doc." && n.ParentID == 0 })
	check("test_x.MAX", schemas.KindConstant, func(n schemas.Node) bool { return n.Exported && n.Signature == "MAX = 3" })
	check("test_x._hidden", schemas.KindVariable, func(n schemas.Node) bool { return n.Visibility == schemas.Private && !n.Exported })
	check("test_x.TestThing", schemas.KindClass, func(n schemas.Node) bool {
		return n.Doc == "Tests.\n\nMore." && n.Signature == "class TestThing(Base)" && n.StartLine == 7 && n.StartCol == 1
	})
	check("test_x.TestThing.count", schemas.KindField, func(n schemas.Node) bool { return n.Exported })
	check("test_x.TestThing.name", schemas.KindField, func(n schemas.Node) bool { return n.StartLine == 16 && n.StartCol == 9 })
	check("test_x.TestThing._secret", schemas.KindField, func(n schemas.Node) bool { return !n.Exported })
	check("test_x.TestThing.__init__", schemas.KindConstructor, func(n schemas.Node) bool { return !n.IsTest })
	check("test_x.TestThing.test_static", schemas.KindMethod, func(n schemas.Node) bool {
		return n.IsStatic && n.IsTest && n.StartLine == 20 && len(n.Decorators) == 1 && n.Decorators[0] == "staticmethod"
	})
	check("test_x.TestThing.test_async", schemas.KindMethod, func(n schemas.Node) bool {
		return n.IsAsync && n.Signature == "async def test_async(self, a, b=2) -> None"
	})
	check("test_x.TestThing.test_async.nested", schemas.KindFunction, func(n schemas.Node) bool { return !n.Exported && !n.IsTest })
	check("test_x.TestThing.__repr__", schemas.KindMethod, func(n schemas.Node) bool { return n.Visibility == schemas.Public && n.Exported })
	check("test_x.test_top", schemas.KindFunction, func(n schemas.Node) bool { return n.IsTest })
	check("test_x.helper", schemas.KindFunction, func(n schemas.Node) bool { return !n.IsTest })
	fields := 0
	for _, n := range res.Nodes {
		if n.QualifiedName == "test_x.TestThing.name" {
			fields++
		}
	}
	if fields != 1 {
		t.Errorf("%d nodes for self.name, want 1", fields)
	}
}

func TestBodyHashIgnoresPosition(t *testing.T) {
	a := languagetest.Extract(t, New(), nil, "m.py", "def f():\n    return 1\n")
	b := languagetest.Extract(t, New(), nil, "m.py", "\n\nimport os\n\ndef f():\n    return 1\n")
	c := languagetest.Extract(t, New(), nil, "m.py", "def f():\n    return 2\n")
	hash := func(r *indexer.Result) uint64 {
		for _, n := range r.Nodes {
			if n.Name == "f" {
				return n.BodyHash
			}
		}
		return 0
	}
	if hash(a) != hash(b) || hash(a) == hash(c) {
		t.Errorf("body hashes: moved %x vs %x, changed %x", hash(a), hash(b), hash(c))
	}
}

func TestSyntaxError(t *testing.T) {
	res := languagetest.Extract(t, New(), nil, "m.py", "def ok():\n    pass\n\ndef broken(:\n    pass\n\nclass After:\n    pass\n")
	if !strings.HasPrefix(res.ParseError, "syntax error at line 4 column ") {
		t.Errorf("ParseError %q", res.ParseError)
	}
	found := false
	for _, n := range res.Nodes {
		found = found || n.QualifiedName == "m.After"
	}
	if !found {
		t.Error("symbols after the error are lost")
	}
	if res := languagetest.Extract(t, New(), nil, "m.py", "x = 1\n"); res.ParseError != "" {
		t.Errorf("ParseError %q for a valid file", res.ParseError)
	}
}

func TestCleandoc(t *testing.T) {
	for in, want := range map[string]string{
		`"""One line."""`: "One line.",
		"'''\n    Indented.\n\n      More.\n    '''": "Indented.\n\n  More.",
		`r"""Raw \d."""`: `Raw \d.`,
		`"single"`:       "single",
	} {
		if got, ok := docstring(in); !ok || got != want {
			t.Errorf("docstring(%q) = %q, want %q", in, got, want)
		}
	}
	if _, ok := docstring(`f"""{x}"""`); ok {
		t.Error("an f-string is a docstring")
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"f(a, b)": "f(a, b)",
		"def f(\n    a,  # first\n    b='#',\n) -> int": "def f(a, b='#',) -> int",
		"x  =  [ 1,\n 2 ]": "x = [1, 2]",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
	long := oneLine(strings.Repeat("é", 300))
	if len(long) > srctext.MaxText || !strings.HasSuffix(long, "…") {
		t.Errorf("capped text: %d bytes, %q", len(long), long[len(long)-6:])
	}
}

func TestAnnotation(t *testing.T) {
	for in, want := range map[string]string{
		"Foo": "{Foo}", "a.b.Foo": "{a.b.Foo}", `"Foo"`: "{Foo}", "Optional[Foo]": "{Foo}",
		"typing.Optional['m.Foo']": "{m.Foo}", "Foo | None": "{Foo}", "None | Foo": "{Foo}",
		"list[Foo]": "{list[Foo]}", "Union[A, B]": "", "A | B": "", "Callable[[], int]": "{Callable}", "1": "",
		"type[Foo]": "Foo", "Type['m.Foo'] | None": "m.Foo", "type[list[Foo]]": "", "Self": "self", "t.Self": "self",
		"t.Iterator[tuple[str, Foo]]": "{t.Iterator[tuple[str,Foo]]}", "tuple[Foo, ...]": "{tuple[Foo]}", "tuple[Foo, Bar]": "{tuple[Foo,Bar]}", "tuple[Foo, A | B]": "{tuple[Foo,?]}",
		"Generator[Foo, None, None]": "{Generator[Foo]}", "list[list[Foo]]": "{list[list[Foo]]}", "dict[str, Foo]": "{dict}",
		"Optional[cabc.Sequence[Foo | None]]": "{cabc.Sequence[Foo]}",
	} {
		if got := annotation(in); got != want {
			t.Errorf("annotation(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzExtract(f *testing.F) {
	seeds := []string{
		"", "\x00", "def", "class A(:\n", "@\ndef f(): pass", "x = (\n", "from . import", "import a as",
		"def f(self):\n    self.x: int = self.x.y()\n    super().\n", "lambda: (yield)", "async def f(*, a=lambda b=c: d): ...",
		"class A:\n    def f(self, /, x):\n        global x\n        nonlocal y\n",
		"if x:\n\tpass\n  else:\n", "'''unterminated", "f(\n", "a.b.c(\n)()[0]().d\n",
		"type X = int\nmatch x:\n    case [a, *b] if a: f()\n",
		"class A(B[C], metaclass=M): x, y = 1, 2\n",
	}
	tree := &indexer.Tree{Paths: map[string]bool{"pkg/__init__.py": true}}
	languagetest.FuzzExtract(f, New(), tree, "pkg/mod.py", seeds, nil, "../../testdata/python/app/*/*.py")
}

// corpus is the fixture's Python files, or those under $SNAP_PYTHON_BENCH (a
// larger tree).
func corpus(b *testing.B) languagetest.Corpus {
	return languagetest.LoadCorpus(b, New(), "../../testdata/python/app", "SNAP_PYTHON_BENCH")
}

func BenchmarkExtract(b *testing.B) { languagetest.BenchmarkExtract(b, New(), corpus(b)) }

// BenchmarkParse is the bare parse of the same files, the yardstick of
// BenchmarkExtract.
func BenchmarkParse(b *testing.B) { languagetest.BenchmarkParse(b, New(), corpus(b)) }
