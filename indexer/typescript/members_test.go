package typescript_test

import (
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
)

// TestMembersByAssignment: what assignments define, and where this is
// their owner; nothing is defined, nor resolved, where the owner is not
// provably the module's declaration.
func TestMembersByAssignment(t *testing.T) {
	g := languagetest.Render(languagetest.Index(t, map[string]string{
		"lib/a.js": `
function F() {}
F.prototype.run = function () { this.stop(); };
F.prototype.stop = function () {};
class C {}
C.prototype.go = function () { this.run(); };
C.make = function () { return new C(); };

var o = {};
o.one = function () { this.two(); };
o.two = function () {
  function o() {}
  this.one();
};

function later() {}
G.prototype.early = function () {};
function G() {}

var imported = require("./b");
imported.patched = function () {};

var a = {}, b = {};
a.x = b.y = function () { this.x(); };

deep.a.b = function () {};
function setup() {
  o.inner = function () {};
}
var [e] = [o];
e.m = function () {};
Object.defineProperty(F.prototype, "size", { value: function () { return this.stop(); } });
Object.defineProperty(o, 'named', { get: function () {} });
Object.assign(o, { three() {} }, { four() {} });
`,
		"lib/b.js": `module.exports = {};`,
	}, typescript.All()...))
	nodes := make(map[string]bool)
	for _, n := range g.Nodes {
		nodes[n] = true
	}
	for _, want := range []string{
		"method lib/a.F.run lib/a.js:3 [in=lib/a.F public sig=run = function ()]",
		"method lib/a.F.stop lib/a.js:4 [in=lib/a.F public sig=stop = function ()]",
		"method lib/a.C.go lib/a.js:6 [in=lib/a.C public sig=go = function ()]",
		"method lib/a.C.make lib/a.js:7 [in=lib/a.C public static sig=make = function ()]",
		"method lib/a.o.one lib/a.js:10 [in=lib/a.o sig=one = function ()]",
		"method lib/a.o.two lib/a.js:11 [in=lib/a.o sig=two = function ()]",
		"method lib/a.a.x lib/a.js:24 [in=lib/a.a sig=x = function ()]",
		"method lib/a.b.y lib/a.js:24 [in=lib/a.b sig=y = function ()]",
		"method lib/a.F.size lib/a.js:32 [in=lib/a.F public sig=size = function ()]",
	} {
		if !nodes[want] {
			t.Errorf("missing node %q", want)
		}
	}
	for _, n := range g.Nodes {
		for _, wrong := range []string{".early ", ".patched ", ".inner ", "deep", ".m ", ".named ", ".three ", ".four "} {
			if strings.Contains(n, wrong) {
				t.Errorf("unexpected node %q", n)
			}
		}
	}
	languagetest.Expect(t, g.Edges, []string{
		"lib/a.F.run -calls-> lib/a.F.stop (receiver)",
		"lib/a.F.size -calls-> lib/a.F.stop (receiver)",
		"lib/a.C.go -calls-> ?this.run (unresolved: unknown member)",
		"lib/a.o.one -calls-> lib/a.o.two (local)",
		"lib/a.o.two -calls-> ?this.one (unresolved: unknown this)",
		"lib/a.a.x -calls-> ?this.x (unresolved: unknown this)",
	})
}

// TestMembersTypeScript: TypeScript declares members, so only an
// assignment to a function's property defines one.
func TestMembersTypeScript(t *testing.T) {
	g := languagetest.Render(languagetest.Index(t, map[string]string{
		"src/a.ts": `
export function f() {}
f.helper = function () {};
export class C {}
C.prototype.m = function () {};
const o: any = {};
o.m = function () {};
`,
	}, typescript.All()...))
	var methods []string
	for _, n := range g.Nodes {
		if strings.HasPrefix(n, "method ") {
			methods = append(methods, n)
		}
	}
	if len(methods) != 1 || !strings.HasPrefix(methods[0], "method src/a.f.helper src/a.ts:3 [in=src/a.f public exported static") {
		t.Errorf("methods %q, want only src/a.f.helper", methods)
	}
}

// TestCommonJSDefinitions: what module.exports and exports make.
func TestCommonJSDefinitions(t *testing.T) {
	g := languagetest.Render(languagetest.Index(t, map[string]string{
		"lib/a.js": `
function a() {}
function b() {}
module.exports = { a, b, c: function () { a(); } };
`,
		"lib/b.js": `module.exports = function named() {};`,
		"lib/c.js": `exports.x = function () {};`,
		"lib/d.js": `
const m = require("./a");
m.c();
const b = require("./b");
const c = require("./c");
b();
c.x();
`,
	}, typescript.All()...))
	nodes := strings.Join(g.Nodes, "\n")
	for _, want := range []string{
		"function lib/a.a lib/a.js:2 [in=lib/a public exported",
		"function lib/a.b lib/a.js:3 [in=lib/a public exported",
		"function lib/a.c lib/a.js:4 [in=lib/a public exported",
		"function lib/b.named lib/b.js:1 [in=lib/b public exported",
		"function lib/c.x lib/c.js:1 [in=lib/c public exported",
	} {
		if !strings.Contains(nodes, want) {
			t.Errorf("missing node %q", want)
		}
	}
	languagetest.Expect(t, g.Edges, []string{
		"lib/a.c -calls-> lib/a.a (local)",
		"lib/d -calls-> lib/a.c (import)",
		"lib/d -calls-> lib/b.named (import)",
		"lib/d -calls-> lib/c.x (import)",
	})
}
