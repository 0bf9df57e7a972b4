package typescript_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestMergedDeclarations: a function and an interface of one name are the
// function where a value is read and the interface where a type is.
func TestMergedDeclarations(t *testing.T) {
	edges := index(t, map[string]string{
		"core.ts": `
export interface $constructor<T> { init(inst: T): void; }
export function $constructor<T>(name: string): $constructor<T> { return null!; }
`,
		"m.ts": `
import * as core from "./core";
export const Check: core.$constructor<string> = core.$constructor("Check");
export function use() {
  Check.init("x");
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"m -calls-> core.$constructor (import)",
		"m.use -calls-> core.$constructor.init (receiver)",
	})
}
