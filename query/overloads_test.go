package query_test

import (
	"slices"
	"testing"

	"github.com/graphsnap/snap/indexer/typescript"
	"github.com/graphsnap/snap/schemas"
)

// TestFindOverloadsAsOne: a TypeScript function's overload signatures and
// its implementation are one symbol to a caller, and so is a module beside
// the function it is named after. Other languages' overloads stay apart.
func TestFindOverloadsAsOne(t *testing.T) {
	e := indexedWith(t, map[string]string{
		"src/switchMap.ts": `export function switchMap(a: number): number;
export function switchMap(a: string): string;
export function switchMap(a: any): any {
  return a;
}
`,
		"src/use.ts": `import { switchMap } from "./switchMap";
export function one() { return switchMap(1); }
export function two() { return switchMap("x"); }
`,
	}, typescript.All()...)
	for _, q := range []struct{ name, file string }{
		{"switchMap", ""}, // the module switchMap too
		{"switchMap", "src/switchMap.ts"},
		{"src/switchMap.switchMap", ""},
	} {
		name := q.name
		rows := e.Find(name, q.file)
		if len(rows) != 1 {
			t.Fatalf("Find(%q) = %v, want the implementation alone", name, qnames(e, rows))
		}
		n := e.Node(rows[0])
		if n.Kind != schemas.KindFunction || n.StartLine != 3 {
			t.Fatalf("Find(%q) = %s %s:%d, want the function at line 3", name, n.Kind, n.File, n.StartLine)
		}
		var callers []string
		for _, c := range e.Callers(rows[0]) {
			callers = append(callers, e.Node(c.Node).QualifiedName)
		}
		slices.Sort(callers)
		if want := []string{"src/use.one", "src/use.two"}; !slices.Equal(callers, want) {
			t.Errorf("callers of %s: %v, want %v", name, callers, want)
		}
	}
}
