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
	with := func(src string) map[string]string {
		return map[string]string{"types.php": types, "use.php": "<?php\nnamespace N;\n" + src}
	}
	lt.TypeUses(t, []string{
		lt.FormConstruct, lt.FormField, lt.FormParam, lt.FormResult, lt.FormAssertion,
		lt.FormExtends, lt.FormImplements, lt.FormAnnotation, lt.FormThrows,
	}, []lt.TypeUse{
		{Form: lt.FormConstruct, Files: with(`function m() { return new Item(); }`),
			Want: []string{`N\m -instantiates-> N\Item (scope) use.php:3`}},
		{Form: lt.FormField, Files: with(`class U {
  private Item $a, $b;
  private int $n;
  public function __construct(private ?Base $c) {}
}`),
			Want:  []string{`N\U::$a -references-> N\Item (scope) use.php:4`, `N\U::$c -references-> N\Base (scope) use.php:6`},
			Wrong: []string{`N\U::$b -references->`, `N\U::$n -references->`}},
		{Form: lt.FormParam, Files: with(`function m(Item $i, int $n, Base|Shape $u) {}`),
			Want: []string{
				`N\m -references-> N\Item (scope) use.php:3`,
				`N\m -references-> N\Base (scope) use.php:3`,
				`N\m -references-> N\Shape (scope) use.php:3`,
			}},
		{Form: lt.FormResult, Files: with(`function m(): ?Item { return null; }`),
			Want: []string{`N\m -references-> N\Item (scope) use.php:3`}},
		{Form: lt.FormAssertion, Files: with(`function m($o) { return $o instanceof Item; }`),
			Want: []string{`N\m -references-> N\Item (scope) use.php:3`}},
		{Form: lt.FormExtends, Files: with(`class U extends Base {}`),
			Want:  []string{`N\U -extends-> N\Base (scope) use.php:3`},
			Wrong: []string{`N\U -references-> N\Base`}},
		{Form: lt.FormImplements, Files: with(`class U implements Shape {}`),
			Want:  []string{`N\U -implements-> N\Shape (scope) use.php:3`},
			Wrong: []string{`N\U -references-> N\Shape`}},
		{Form: lt.FormAnnotation, Files: with(`#[Mark] class U { #[\Deprecated] public function m() {} }`),
			Want:  []string{`N\U -references-> N\Mark (scope) use.php:3`},
			Wrong: []string{`N\U::m -references-> ?`}},
		{Form: lt.FormThrows, Files: with(`function m() { try {} catch (Oops $e) {} }`),
			Want: []string{`N\m -references-> N\Oops (scope) use.php:3`}},
	}, php.New())
}
