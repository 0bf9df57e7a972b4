package python_test

import (
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/python"
)

func TestGolden(t *testing.T) {
	languagetest.Run(t, "../../testdata/python/app", "../../testdata/python/app.golden.json", python.New())
}

// index indexes files (path → source) and returns the golden lines of its
// edges.
var index = languagetest.EdgesWith(python.New())

func TestSelfMethodOnBase(t *testing.T) {
	edges := index(t, map[string]string{
		"m.py": `
class Base:
    def save(self): ...

class Child(Base):
    def run(self):
        self.save()
        def later():
            self.save()
        return later
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Child.run -calls-> m.Base.save (receiver)",
		"m.Child.run.later -calls-> m.Base.save (receiver)",
	})
}

func TestMethodResolutionOrder(t *testing.T) {
	// C3 puts C before A: a depth-first search would pick A.m.
	edges := index(t, map[string]string{
		"m.py": `
class A:
    def m(self): ...
class B(A): ...
class C(A):
    def m(self): ...
class D(B, C):
    def run(self):
        self.m()
        super().m()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.D.run -calls-> m.C.m (receiver)",
	}, "m.D.run -calls-> m.A.m")
}

func TestSuperInit(t *testing.T) {
	edges := index(t, map[string]string{
		"m.py": `
class Base:
    def __init__(self, x): ...

class Mid(Base): ...

class A(Mid):
    def __init__(self):
        super().__init__(1)

class B(Base):
    def __init__(self):
        super(B, self).__init__(2)

class E(Exception):
    def __init__(self, msg):
        super().__init__(msg)
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.A.__init__ -calls-> m.Base.__init__ (receiver)",
		"m.B.__init__ -calls-> m.Base.__init__ (receiver)",
	}, "m.A.__init__ -calls-> m.A.__init__", "m.E.__init__ -calls->")
}

func TestShadowingLocal(t *testing.T) {
	edges := index(t, map[string]string{
		"lib.py": "def helper(): ...\n",
		"m.py": `
from lib import helper

def by_param(helper):
    helper()

def by_assignment(x):
    helper = x.pick()
    helper()

def by_loop(items):
    for helper in items:
        helper()

def not_shadowed():
    helper()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.by_param -calls-> ?helper (unresolved: dynamic call)",
		"m.by_assignment -calls-> ?helper (unresolved: unknown receiver type)",
		"m.by_loop -calls-> ?helper (unresolved: dynamic call)",
		"m.not_shadowed -calls-> lib.helper (import)",
		"m -imports-> lib.helper (import)",
	}, "m.by_param -calls-> lib.helper", "m.by_assignment -calls-> lib.helper", "m.by_loop -calls-> lib.helper")
}

func TestClassScopeNotVisibleFromMethods(t *testing.T) {
	edges := index(t, map[string]string{
		"m.py": `
def helper(): ...

class A:
    def helper(self): ...
    def run(self):
        helper()

class B:
    def make(): ...
    made = make()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.A.run -calls-> m.helper (local)",
		"m.B -calls-> m.B.make (scope)",
	}, "m.A.run -calls-> m.A.helper")
}

func TestImportsAndReexports(t *testing.T) {
	edges := index(t, map[string]string{
		"pkg/__init__.py":     "from .sub import Thing as Public\n",
		"pkg/sub/__init__.py": "from .impl import Thing\n",
		"pkg/sub/impl.py":     "class Thing:\n    def go(self): ...\n",
		"pkg/util.py":         "def tool(): ...\n",
		"app/__init__.py":     "",
		"app/main.py": `
import pkg.util
import pkg.util as u
from pkg import Public
from pkg.sub import impl
from ..outside import nothing

def run():
    Public().go()
    impl.Thing().go()
    pkg.util.tool()
    u.tool()
`,
	})
	languagetest.Expect(t, edges, []string{
		"app.main -imports-> pkg.util (import)",
		"app.main -imports-> pkg.sub.impl.Thing (import)",
		"app.main -imports-> pkg.sub.impl (import)",
		"app.main -imports-> ?..outside.nothing (unresolved: not in snapshot)",
		"app.main.run -instantiates-> pkg.sub.impl.Thing (import)",
		"app.main.run -calls-> pkg.sub.impl.Thing.go (receiver)",
		"app.main.run -calls-> pkg.util.tool (import)",
		"pkg -imports-> pkg.sub.impl.Thing (import)",
	})
}

func TestTypesOfFieldsLocalsAndResults(t *testing.T) {
	edges := index(t, map[string]string{
		"m.py": `
from typing import Optional

class Repo:
    def save(self): ...

class Conn:
    def close(self): ...

def connect() -> "Conn": ...

class Service:
    conn: Optional[Conn] = None

    def __init__(self, repo: Repo):
        self.repo = repo
        self.cache = Repo()

    def run(self, other: Repo):
        self.repo.save()
        self.cache.save()
        self.conn.close()
        other.save()
        r = Repo()
        r.save()
        connect().close()

repo = Repo()

def use():
    repo.save()

_conn = None

def get_conn():
    global _conn
    if _conn is None:
        _conn = connect()
    return _conn

def use_conn():
    _conn.close()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Service.run -calls-> m.Repo.save (receiver) m.py:20",
		"m.Service.run -calls-> m.Repo.save (receiver) m.py:21",
		"m.Service.run -calls-> m.Conn.close (receiver) m.py:22",
		"m.Service.run -calls-> m.Repo.save (receiver) m.py:23",
		"m.Service.run -calls-> m.Repo.save (receiver) m.py:25",
		"m.Service.run -calls-> m.Conn.close (receiver) m.py:26",
		"m.use -calls-> m.Repo.save (receiver)",
		"m.use_conn -calls-> m.Conn.close (receiver)",
	})
}

func TestConstructors(t *testing.T) {
	edges := index(t, map[string]string{
		"m.py": `
class Base:
    def __init__(self): ...

class Child(Base):
    @classmethod
    def make(cls):
        return cls()

class Plain: ...

def build():
    Child()
    Plain()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Child.make -calls-> m.Base.__init__ (receiver)",
		"m.Child.make -instantiates-> m.Child (receiver)",
		"m.build -calls-> m.Base.__init__ (local)",
		"m.build -instantiates-> m.Child (local)",
		"m.build -instantiates-> m.Plain (local)",
	}, "m.build -calls-> ?Plain")
}

func TestUnresolvedAndBuiltins(t *testing.T) {
	edges := index(t, map[string]string{
		"m.py": `
import os
import requests

def f(handlers, x):
    print(len(x))
    ", ".join(x)
    items = []
    items.append(1)
    os.getcwd()
    requests.get(x).json()
    handlers[0]()
    x.anything()
    undefined_function()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.f -calls-> ?os.getcwd (unresolved: not in snapshot)",
		"m.f -calls-> ?requests.get (unresolved: not in snapshot)",
		"m.f -calls-> ?handlers[0] (unresolved: dynamic call)",
		"m.f -calls-> ?x.anything (unresolved: unknown receiver type)",
		"m.f -calls-> ?undefined_function (unresolved: unknown name)",
	}, "m.f -calls-> ?print", "m.f -calls-> ?len", "m.f -calls-> ?\", \".join", "m.f -calls-> ?items.append")
}

func TestAmbiguous(t *testing.T) {
	edges := index(t, map[string]string{
		"m.py": `
try:
    from fast import parse
except ImportError:
    def parse(s): ...

def f(s):
    parse(s)
`,
	})
	languagetest.Expect(t, edges, []string{"m.f -calls-> ?parse (ambiguous: 2 candidates)"}, "m.f -calls-> m.parse")
}

func TestStarImport(t *testing.T) {
	edges := index(t, map[string]string{
		"a.py": "def one(): ...\n",
		"b.py": "from a import *\nfrom os.path import *\n\none()\njoin('x')\n",
	})
	languagetest.Expect(t, edges, []string{
		"b -calls-> a.one (import)",
		"b -calls-> ?join (unresolved: not in snapshot)",
	})
}

func TestPropertyAndDecorators(t *testing.T) {
	edges := index(t, map[string]string{
		"m.py": `
import functools

class Item:
    def price(self): ...

class Cart:
    @property
    def first(self) -> Item: ...

    @functools.lru_cache()
    def total(self):
        return self.first.price()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Cart.total -calls-> m.Item.price (receiver)",
		"m.Cart -calls-> ?functools.lru_cache (unresolved: not in snapshot)",
	})
}

// TestPlatformModules: a name bound by platform to a POSIX module or a
// Windows-only one (os.path: posixpath or ntpath) is the POSIX one; two
// POSIX candidates stay ambiguous.
func TestPlatformModules(t *testing.T) {
	edges := index(t, map[string]string{
		"os.py": `
import sys
if 'posix' in sys.builtin_module_names:
    import posixpath as path
elif 'nt' in sys.builtin_module_names:
    import ntpath as path
if sys.version_info > (3, 12):
    import fastjson as json
else:
    import slowjson as json
`,
		"posixpath.py": "def join(a, *p): ...\n",
		"ntpath.py":    "def join(a, *p): ...\n",
		"fastjson.py":  "def dumps(o): ...\n",
		"slowjson.py":  "def dumps(o): ...\n",
		"shutil.py": `
import os

def copy(src, dst):
    os.path.join(dst, src)
    os.json.dumps(src)
`,
	})
	languagetest.Expect(t, edges, []string{
		"shutil.copy -calls-> posixpath.join (import)",
		"shutil.copy -calls-> ?os.json.dumps (ambiguous: 2 candidates)",
	}, "shutil.copy -calls-> ntpath.join")
}

// TestFunctionsAsValues: a function or class passed to a call as an
// argument, by keyword, or starred, is a references edge; a variable,
// a parameter, a builtin or an expression is none.
func TestFunctionsAsValues(t *testing.T) {
	edges := index(t, map[string]string{
		"shutil.py": `
def copy2(src, dst): ...

class Handler: ...

def copytree(src, dst, copy_function=copy2, handler=None): ...

def run(items, copy2_param):
    copytree("a", "b", copy_function=copy2)
    register(Handler)
    sorted(items, key=len)
    apply(copy2_param)
    apply(items)
    apply(copy2(1, 2))
    apply(*Handler.__mro__)
    apply(copy2 if items else None)
`,
	})
	languagetest.Expect(t, edges, []string{
		"shutil.run -references-> shutil.copy2 (local) shutil.py:9",
		"shutil.run -references-> shutil.Handler (local) shutil.py:10",
	})
	for _, e := range edges {
		if strings.Contains(e, "-references->") && strings.Contains(e, "shutil.run") &&
			!strings.HasSuffix(e, "shutil.py:9") && !strings.HasSuffix(e, "shutil.py:10") {
			t.Errorf("an argument that names no function or class made an edge: %s", e)
		}
	}
}

func TestClassAnnotations(t *testing.T) {
	// type[T] is the class T: calling it instantiates T.
	edges := index(t, map[string]string{
		"m.py": `
import typing as t

class Formatter:
    def write(self): ...

class Command:
    formatter_class: type[Formatter] = Formatter

    def make(self):
        return self.formatter_class()

    def run(self, cls: t.Type[Formatter] | None = None):
        self.formatter_class().write()
        cls().write()

def pick() -> "type[Formatter] | None": ...

def main():
    pick()().write()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Command.make -instantiates-> m.Formatter (receiver)",
		"m.Command.run -calls-> m.Formatter.write (receiver)",
		"m.Command.run -instantiates-> m.Formatter (local)",
		"m.main -calls-> m.Formatter.write (receiver)",
	})
}

func TestContextManagers(t *testing.T) {
	// with e as x binds e.__enter__(): self (or Self) is the instance e is,
	// a subclass's where it is one.
	edges := index(t, map[string]string{
		"m.py": `
from typing import Self

class Session:
    def __enter__(self) -> Self:
        return self
    def get(self): ...

class Traced(Session):
    def get(self): ...

class Plain:
    def __enter__(self):
        return self
    def read(self): ...

class Async:
    async def __aenter__(self) -> "Async":
        return self
    def fetch(self): ...

def main():
    with Session() as s:
        s.get()
    with Traced() as tr:
        tr.get()
    with Plain() as p, open("f") as f:
        p.read()
        f.read()
    with Session.__enter__(Traced()) as u:
        u.get()

async def run():
    async with Async() as a:
        a.fetch()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.main -calls-> m.Session.get (receiver) m.py:24",
		"m.main -calls-> m.Traced.get (receiver) m.py:26",
		"m.main -calls-> m.Plain.read (receiver) m.py:28",
		"m.main -calls-> ?u.get (unresolved",
		"m.run -calls-> m.Async.fetch (receiver)",
	}, "m.main -calls-> m.Session.get (receiver) m.py:26")
}

func TestInferredResults(t *testing.T) {
	// A function with no return annotation returns what its return
	// statements agree on; a decorator that may replace it, a generator
	// or returns that disagree leave it unknown.
	edges := index(t, map[string]string{
		"m.py": `
import functools

class Node:
    def visit(self): ...

    def copy(self):
        return self

    @classmethod
    def make(cls):
        return cls()

class Leaf(Node):
    def visit(self): ...

def build(x):
    if x:
        return Node()
    return None

def either(x):
    if x:
        return Node()
    return Leaf()

@functools.lru_cache(maxsize=None)
def cached():
    return Node()

def register(f): ...

@register
def replaced():
    return Node()

def gen():
    yield Node()
    return Node()

def main():
    build(1).visit()
    either(1).visit()
    cached().visit()
    replaced().visit()
    gen().visit()
    Leaf().copy().visit()
    Leaf.make().visit()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.main -calls-> m.Node.visit (receiver) m.py:42",
		"m.main -calls-> m.Node.visit (receiver) m.py:44",
		"m.main -calls-> m.Leaf.visit (receiver) m.py:47",
		"m.main -calls-> m.Leaf.visit (receiver) m.py:48",
	}, "m.main -calls-> m.Node.visit (receiver) m.py:43", "m.main -calls-> m.Node.visit (receiver) m.py:45",
		"m.main -calls-> m.Node.visit (receiver) m.py:46", "m.main -calls-> m.Node.visit (receiver) m.py:47",
		"m.main -calls-> m.Node.visit (receiver) m.py:48")
}

func TestLoopsAndExcept(t *testing.T) {
	// A for loop over an annotated container binds its items; except E as
	// e an instance of E.
	edges := index(t, map[string]string{
		"m.py": `
import typing as t
from collections.abc import Iterator

class Param:
    def check(self): ...

class Failed(Exception):
    def show(self): ...

class Params:
    def __iter__(self) -> Iterator[Param]: ...

def params() -> list[Param]: ...

def pairs() -> t.Iterator[tuple[str, Param]]: ...

class Sequence:
    def check(self): ...

def own() -> Sequence[Param]: ...

def main(ps: t.Sequence[Param], more: "tuple[Param, ...]"):
    for p in params():
        p.check()
    [q.check() for q in ps]
    for r in more:
        r.check()
    for s in Params():
        s.check()
    for u in pairs():
        u.check()
    for v in own():
        v.check()
    try:
        main(ps, more)
    except Failed as e:
        e.show()
    except (KeyError, Failed) as g:
        g.show()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.main -calls-> m.Param.check (receiver) m.py:25",
		"m.main -calls-> m.Param.check (receiver) m.py:26",
		"m.main -calls-> m.Param.check (receiver) m.py:28",
		"m.main -calls-> m.Param.check (receiver) m.py:30",
		"m.main -calls-> m.Failed.show (receiver) m.py:38",
		"m.main -calls-> ?g.show (unresolved",
	}, "m.main -calls-> m.Param.check (receiver) m.py:32", "m.main -calls-> m.Param.check (receiver) m.py:34")
}

func TestCastAndNone(t *testing.T) {
	// typing.cast(T, v) is an instance of T; a name bound to None in one
	// branch and to a function in another is the function where called.
	edges := index(t, map[string]string{
		"m.py": `
import typing as t
from typing import cast

class Group:
    def list(self): ...

def cast2(a, b): ...

try:
    from ctypes import pythonapi
except ImportError:
    get_buffer = None
else:
    def get_buffer(obj): ...

def main(ctx):
    t.cast(Group, ctx).list()
    g = cast("Group", ctx)
    g.list()
    cast2(Group, ctx).list()
    get_buffer(ctx)
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.main -calls-> m.Group.list (receiver) m.py:18",
		"m.main -calls-> m.Group.list (receiver) m.py:20",
		"m.main -calls-> m.get_buffer (local) m.py:22",
	}, "m.main -calls-> m.Group.list (receiver) m.py:21")
}

func TestNarrowing(t *testing.T) {
	// In the body of `if isinstance(x, C):` and of `except C as x:`, x is a
	// C, unless the block binds x again or x is known otherwise.
	edges := index(t, map[string]string{
		"m.py": `
class Base:
    def m(self): ...

class Sub(Base):
    def m(self): ...

class Other:
    def m(self): ...

class Failed(Exception):
    def show(self): ...

class Aborted(Exception):
    def show(self): ...

def f(x, y, z):
    if isinstance(x, Base):
        x.m()
    elif isinstance(x, Other):
        x.m()
    x.m()
    if isinstance(y, Base):
        y = Other()
        y.m()
    s = Sub()
    if isinstance(s, Base):
        s.m()
    if isinstance(z, (Base, Other)):
        z.m()
    try:
        f(x, y, z)
    except Failed as e:
        e.show()
    except Aborted as e:
        e.show()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.f -calls-> m.Base.m (receiver) m.py:19",
		"m.f -calls-> m.Other.m (receiver) m.py:21",
		"m.f -calls-> ?x.m (unresolved: unknown receiver type) m.py:22",
		"m.f -calls-> ?y.m (unresolved: unknown receiver type) m.py:25",
		"m.f -calls-> m.Sub.m (receiver) m.py:28",
		"m.f -calls-> ?z.m (unresolved: unknown receiver type) m.py:30",
		"m.f -calls-> m.Failed.show (receiver) m.py:34",
		"m.f -calls-> m.Aborted.show (receiver) m.py:36",
	})
}

func TestUnpacking(t *testing.T) {
	// a, b = e binds a to e[0] and b to e[1]: the types of an annotated
	// tuple by position; for loops unpack their items, enumerate and zip
	// their arguments' items.
	edges := index(t, map[string]string{
		"m.py": `
import typing as t

class Cmd:
    def run(self): ...

def resolve() -> tuple[str | None, Cmd | None, list[str]]: ...

def visible() -> t.Iterator[tuple[str, Cmd]]: ...

def cmds() -> list[Cmd]: ...

def main():
    name, cmd, args = resolve()
    cmd.run()
    name.run()
    for n, c in visible():
        c.run()
    for i, c2 in enumerate(cmds()):
        c2.run()
        i.run()
    for a, b in zip(cmds(), visible()):
        a.run()
        b.run()
    x, y = y, x
    x.run()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.main -calls-> m.Cmd.run (receiver) m.py:15",
		"m.main -calls-> m.Cmd.run (receiver) m.py:18",
		"m.main -calls-> m.Cmd.run (receiver) m.py:20",
		"m.main -calls-> ?i.run (unresolved",
		"m.main -calls-> m.Cmd.run (receiver) m.py:23",
		"m.main -calls-> ?x.run (unresolved",
	}, "m.main -calls-> m.Cmd.run (receiver) m.py:16", "m.main -calls-> m.Cmd.run (receiver) m.py:24")
}

func TestOrEmpty(t *testing.T) {
	// e or [] is e, or an empty container.
	edges := index(t, map[string]string{
		"m.py": `
class Group:
    def get(self): ...

class Collection:
    def __init__(self, sources: list[Group] | None = None):
        self.sources = sources or []
        self.other = sources or [1]

    def run(self):
        for s in self.sources:
            s.get()
        for o in self.other:
            o.get()
`,
	})
	languagetest.Expect(t, edges, []string{
		"m.Collection.run -calls-> m.Group.get (receiver) m.py:12",
		"m.Collection.run -calls-> ?o.get (unresolved",
	})
}

func TestWrappedFunctions(t *testing.T) {
	// A class attribute staticmethod(f) is f.
	edges := index(t, map[string]string{
		"m.py": `
def parse(value): ...

class Header:
    value_parser = staticmethod(parse)

    @classmethod
    def make(cls, value):
        return cls.value_parser(value)
`,
	})
	languagetest.Expect(t, edges, []string{"m.Header.make -calls-> m.parse (receiver)"})
}

func TestClassBodyImport(t *testing.T) {
	// A function imported in a class body is a method of the class.
	edges := index(t, map[string]string{
		"iterators.py": "def walk(self): ...\n",
		"message.py": `
class Message:
    from iterators import walk

    def parts(self):
        return [p for p in self.walk()]
`,
	})
	languagetest.Expect(t, edges, []string{"message.Message.parts -calls-> iterators.walk (receiver)"})
}
