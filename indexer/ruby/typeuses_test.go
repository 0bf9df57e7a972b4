package ruby_test

import (
	"testing"

	lt "github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/ruby"
)

// TestTypeUses holds Ruby to the uses of a class it records: a
// construction, and a class a rescue clause names. Ruby has no other
// type positions.
func TestTypeUses(t *testing.T) {
	types := `class Item; end
class Base; end
class Oops < StandardError; end
module Shop
  class Failed < StandardError; end
end
`
	setting := lt.Setting{Files: map[string]string{"lib/types.rb": types}, File: "lib/use.rb"}
	lt.TypeUses(t, setting, []string{lt.FormConstruct, lt.FormExtends, lt.FormThrows}, []lt.TypeUse{
		{Form: lt.FormConstruct, Src: `class U
  def m
    Item.new
  end
end`,
			Want: []string{"U#m -instantiates-> Item (scope) lib/use.rb:3"}},
		{Form: lt.FormExtends, Src: `class U < Base; end`,
			Want: []string{"U -extends-> Base (scope) lib/use.rb:1"}},
		{Form: lt.FormThrows, Src: `class U
  LIMIT = 3
  def m
    yield
  rescue Oops, Shop::Failed => e
    nil
  rescue ArgumentError
    nil
  end
end`,
			Want: []string{
				"U#m -references-> Oops (scope) lib/use.rb:5",
				"U#m -references-> Shop::Failed (scope) lib/use.rb:5",
				"U#m -references-> ?ArgumentError (unresolved: external ArgumentError) lib/use.rb:7",
			}},
	}, ruby.New())
}
