package typescript_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/indexer/typescript"
	"github.com/graphsnap/snap/schemas"
)

// A monorepo's workspace packages import each other by name: through
// main and a tsconfig outDir (the built file stands for its source),
// through an exports map with a subpath pattern, and by a path into a
// package without one. A name two packages share names neither.
func TestWorkspacePackages(t *testing.T) {
	edges := index(t, map[string]string{
		"package.json":                    `{"name": "root", "private": true, "devDependencies": {"typescript": "5"}}`,
		"packages/core/package.json":      `{"name": "@m/core", "main": "dist/index.js", "types": "dist/index.d.ts"}`,
		"packages/core/tsconfig.json":     `{"compilerOptions": {"outDir": "dist", "rootDir": "src"}}`,
		"packages/core/src/index.ts":      "export function hello(): string { return \"hi\" }\n",
		"packages/core/src/util/clock.ts": "export function now(): number { return 0 }\n",
		"packages/ui/package.json": `{"name": "@m/ui", "dependencies": {"@m/core": "workspace:*"},
			"exports": {".": {"types": "./lib/main.d.ts", "default": "./lib/main.js"}, "./widgets/*": "./lib/widgets/*.js"}}`,
		"packages/ui/lib/main.js":         "export function render() {}\n",
		"packages/ui/lib/widgets/card.js": "export function card() {}\n",
		"packages/ui/lib/hidden.js":       "export function hidden() {}\n",
		"packages/plain/package.json":     `{"name": "plain"}`,
		"packages/plain/index.js":         "exports.top = function top() {}\n",
		"packages/plain/lib/deep.js":      "exports.deep = function deep() {}\n",
		"dup/a/package.json":              `{"name": "twice", "main": "x.js"}`,
		"dup/a/x.js":                      "export function x() {}\n",
		"dup/b/package.json":              `{"name": "twice", "main": "x.js"}`,
		"dup/b/x.js":                      "export function x() {}\n",
		"app/package.json":                `{"name": "app", "dependencies": {"@m/core": "*", "@m/ui": "*"}}`,
		"app/main.ts": `import { hello } from "@m/core";
import { now } from "@m/core/dist/util/clock.js";
import { render } from "@m/ui";
import { card } from "@m/ui/widgets/card";
import { hidden } from "@m/ui/lib/hidden";
import { top } from "plain";
import { deep } from "plain/lib/deep";
import { x } from "twice";
import { join } from "path";

export function main() {
  hello();
  now();
  render();
  card();
  hidden();
  top();
  deep();
  x();
  join();
}
`,
	})
	languagetest.Expect(t, edges, []string{
		"app/main.main -calls-> packages/core/src.hello (import)",
		"app/main.main -calls-> packages/core/src/util/clock.now (import)",
		"app/main.main -calls-> packages/ui/lib/main.render (import)",
		"app/main.main -calls-> packages/ui/lib/widgets/card.card (import)",
		"app/main.main -calls-> packages/plain.top (import)",
		"app/main.main -calls-> packages/plain/lib/deep.deep (import)",
	}, "app/main.main -calls-> packages/ui/lib/hidden.hidden", "app/main.main -calls-> dup/a/x.x", "app/main.main -calls-> dup/b/x.x")
}

// Every module of a named package says which package it belongs to and
// what the package and the ones above it depend on.
func TestDistFacts(t *testing.T) {
	g := languagetest.Index(t, map[string]string{
		"package.json":          `{"name": "root", "devDependencies": {"typescript": "5"}}`,
		"pkg/package.json":      `{"name": "@s/pkg", "dependencies": {"ms": "2", "debug": "4"}, "peerDependencies": {"react": "18"}}`,
		"pkg/src/index.ts":      "export const a = 1\n",
		"other/package.json":    `{"private": true}`,
		"other/nameless.ts":     "export const b = 2\n",
		"node_modules/x/y.js":   "exports.c = 3\n",
		"node_modules/x/z.json": "{}",
	}, typescript.All()...)
	var got []string
	for _, r := range g.Refs {
		if r.Kind == schemas.RefDist || r.Kind == schemas.RefEntry {
			got = append(got, r.File+" "+r.Kind+" "+r.Target+" ["+r.Expr+"]")
		}
	}
	slices.Sort(got)
	want := []string{
		"pkg/src/index.ts dist @s/pkg [debug ms react typescript]",
		"pkg/src/index.ts entry @s/pkg/src/index []",
		"pkg/src/index.ts entry @s/pkg/src []",
	}
	slices.Sort(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("facts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
