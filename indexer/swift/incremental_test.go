package swift_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/swift"
)

// TestIncremental edits a package step by step and checks after each
// edit that an index reusing the previous one's rows is the same, node
// for node and edge for edge, as a full index: resolution attaches
// extension members and conformances across files and modules.
func TestIncremental(t *testing.T) {
	languagetest.Incremental(t, []indexer.Language{swift.New()}, map[string]string{
		"Sources/Core/A.swift":   "public struct T { public init() {} }\npublic protocol P { func m() }\n",
		"Sources/Core/B.swift":   "extension T: P { public func m() {} }\n",
		"Sources/App/main.swift": "import Core\nlet t = T()\nt.m()\n",
	}, []languagetest.Step{
		{Name: "nothing"},
		{Name: "move the extension", Write: map[string]string{
			"Sources/Core/B.swift": "public func f() {}\n",
			"Sources/Core/C.swift": "extension T: P { public func m() {} }\n",
		}},
		{Name: "rename the type", Write: map[string]string{
			"Sources/Core/A.swift": "public struct U { public init() {} }\npublic protocol P { func m() }\n",
		}},
	})
}
