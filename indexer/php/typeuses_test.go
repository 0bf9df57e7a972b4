package php_test

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/php"
)

// TestTypeUses holds PHP to every use of a type it records: one snippet
// per form, its edges to classes of the repository, none to builtin
// types.
func TestTypeUses(t *testing.T) {
	types := `<?php
namespace N;
class Item {}
interface Shape {}
class Base {}
#[\Attribute] class Mark {}
class Oops extends \Exception {}
`
	setting := lt.Setting{Files: map[string]string{"types.php": types}, File: "use.php", Before: "<?php\nnamespace N;\n"}
	lt.TypeUses(t, setting, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormAssertion,
		lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Src: `function m() { return new Item(); }`,
			Want: []string{`N\m -instantiates-> N\Item (scope) use.php:3`}},
		{Form: lt.FormField, Src: `class U {
  private Item $a, $b;
  private int $n;
  public function __construct(private ?Base $c) {}
}`,
			Want:  []string{`N\U::$a -references-> N\Item (scope) use.php:4`, `N\U::$c -references-> N\Base (scope) use.php:6`},
			Wrong: []string{`N\U::$b -references->`, `N\U::$n -references->`}},
		{Form: lt.FormParam, Src: `function m(Item $i, int $n, Base|Shape $u) {}`,
			Want: []string{
				`N\m -references-> N\Item (scope) use.php:3`,
				`N\m -references-> N\Base (scope) use.php:3`,
				`N\m -references-> N\Shape (scope) use.php:3`,
			}},
		{Form: lt.FormResult, Src: `function m(): ?Item { return null; }`,
			Want: []string{`N\m -references-> N\Item (scope) use.php:3`}},
		{Form: lt.FormAssertion, Src: `function m($o) { return $o instanceof Item; }`,
			Want: []string{`N\m -references-> N\Item (scope) use.php:3`}},
		{Form: lt.FormExtends, Src: `class U extends Base {}`,
			Want:  []string{`N\U -extends-> N\Base (scope) use.php:3`},
			Wrong: []string{`N\U -references-> N\Base`}},
		{Form: lt.FormImplements, Src: `class U implements Shape {}`,
			Want:  []string{`N\U -implements-> N\Shape (scope) use.php:3`},
			Wrong: []string{`N\U -references-> N\Shape`}},
		{Form: lt.FormAnnotation, Src: `#[Mark] class U { #[\Deprecated] public function m() {} }`,
			Want:  []string{`N\U -references-> N\Mark (scope) use.php:3`},
			Wrong: []string{`N\U::m -references-> ?`}},
		{Form: lt.FormThrows, Src: `function m() { try {} catch (Oops $e) {} }`,
			Want: []string{`N\m -references-> N\Oops (scope) use.php:3`}},
	}, php.New())
}
