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
func index(t *testing.T, files map[string]string) []string {
	t.Helper()
	return languagetest.Edges(t, files, python.New())
}

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
