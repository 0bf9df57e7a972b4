package php_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/php"
)

// edges indexes files (path → source) and returns the golden lines of its
// edges.
var edges = languagetest.EdgesWith(php.New())

func TestFunctionFallback(t *testing.T) {
	e := edges(t, map[string]string{
		"a.php": `<?php
namespace A;
function local() {}
function run() { local(); helper(); \A\local(); namespace\local(); strlen('x'); }
`,
		"b.php": `<?php
function helper() {}
function local() {}
`,
	})
	languagetest.Expect(t, e, []string{
		`A\run -calls-> A\local (scope) a.php:4`,
		`A\run -calls-> helper (scope) a.php:4`,
		`A\run -calls-> ?strlen (unresolved: external function \strlen)`,
	},
		// the namespace's function shadows the global one.
		`A\run -calls-> local (scope)`)
}

func TestNamesAreNotGuessed(t *testing.T) {
	e := edges(t, map[string]string{
		"a.php": `<?php
namespace A;
use B\Thing;
class Thing { function go() {} }
class C {
    function f($x, Thing $t) { $x->go(); $t->go(); $y = new Thing(); $y->go(); $y = $x; $y->go(); }
}
`,
		"b.php": `<?php
namespace B;
class Thing { function go() {} }
`,
	})
	languagetest.Expect(t, e, []string{
		`A\C::f -calls-> ?$x->go (unresolved: untyped parameter) a.php:6`,
		`A\C::f -calls-> B\Thing::go (receiver) a.php:6`,
		`A\C::f -instantiates-> B\Thing (scope) a.php:6`,
		`A\C::f -calls-> ?$y->go (unresolved: untyped parameter) a.php:6`,
	},
		// use B\Thing beats the namespace's own Thing.
		`A\C::f -calls-> A\Thing::go`,
		`A\C::f -instantiates-> A\Thing`)
}

func TestInheritance(t *testing.T) {
	e := edges(t, map[string]string{
		"a.php": `<?php
trait T { function fromTrait() {} function both() {} }
class P { function fromParent() {} function both() {} function __construct() {} }
class C extends P {
    use T;
    function f() { $this->fromTrait(); $this->fromParent(); $this->both(); parent::both(); self::f(); static::f(); new C(); }
}
class E extends \Vendor\Base { function g() { $this->h(); } }
class M { function __call($n, $a) {} function g() { $this->anything(); } }
`,
	})
	languagetest.Expect(t, e, []string{
		`C::f -calls-> T::fromTrait (receiver) a.php:6`,
		`C::f -calls-> P::fromParent (receiver) a.php:6`,
		`C::f -calls-> T::both (receiver) a.php:6`,
		`C::f -calls-> P::both (scope) a.php:6`,
		`C::f -calls-> C::f (scope) a.php:6`,
		`C::f -calls-> P::__construct (scope) a.php:6`,
		`C -extends-> T (scope)`,
		`E::g -calls-> ?$this->h (unresolved: member of external base \Vendor\Base)`,
		`M::g -calls-> ?$this->anything (unresolved: magic method __call)`,
	}, `C::f -calls-> P::both (receiver)`)
}

func TestAmbiguousDeclarations(t *testing.T) {
	e := edges(t, map[string]string{
		"a.php": `<?php
if (!function_exists('f')) { function f() {} }
class K { function m() {} }
f();
(new K())->m();
`,
		"b.php": `<?php
function f() {}
class K { function m() {} }
`,
	})
	languagetest.Expect(t, e, []string{
		`a.php -calls-> ?f (ambiguous: ambiguous function \f)`,
		`a.php -instantiates-> ?new K (ambiguous: ambiguous class \K)`,
		`a.php -calls-> ?(new K())->m (ambiguous: ambiguous class \K)`,
	}, `a.php -calls-> f `, `a.php -calls-> K::m`)
}

func TestChainsAndImports(t *testing.T) {
	e := edges(t, map[string]string{
		"src/a.php": `<?php
namespace N;
use function N\Util\make;
use N\Util\{Box, Item as It};
require __DIR__ . '/../lib/x.php';
include 'missing.php';
require $dynamic;
class Holder { public Box $box; public function box(): Box { return $this->box; } }
function g(Holder $h) { $h->box->item()->name(); $h->box()->item(); make()->item(); It::build(); }
`,
		"src/Util.php": `<?php
namespace N\Util;
function make(): Box { return new Box(); }
class Box { function item(): Item { return new Item(); } }
class Item { function name() {} static function build() {} }
`,
		"lib/x.php": `<?php`,
	})
	languagetest.Expect(t, e, []string{
		`N\g -calls-> N\Util\Box::item (receiver) src/a.php:9`,
		`N\g -calls-> N\Util\Item::name (receiver) src/a.php:9`,
		`N\g -calls-> N\Util\make (import) src/a.php:9`,
		`N\g -calls-> N\Util\Item::build (import) src/a.php:9`,
		`src/a.php -imports-> lib/x.php (import) src/a.php:5`,
		`src/a.php -imports-> ?include 'missing.php' (unresolved: no such file src/missing.php)`,
		`src/a.php -imports-> ?require $dynamic (unresolved: dynamic path)`,
		`src/a.php -imports-> N\Util\Item (import)`,
		`src/a.php -imports-> N\Util\make (import)`,
	})
}
