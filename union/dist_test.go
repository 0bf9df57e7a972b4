package union_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/union"
)

// npmRepos makes a library package and an application that depends on it
// (or not: deps is the application's dependencies object).
func npmRepos(t *testing.T, root, deps string) (lib, app *snapshot.Snapshot) {
	lib = index(t, write(t, filepath.Join(root, "lib"), map[string]string{
		"package.json":  `{"name": "@acme/greet", "main": "dist/index.js", "types": "dist/index.d.ts"}`,
		"tsconfig.json": `{"compilerOptions": {"outDir": "dist", "rootDir": "src"}}`,
		"src/index.ts":  "export { hello } from \"./hello\";\nexport class Greeter { greet(n: string) { return n } }\n",
		"src/hello.ts":  "export function hello(name: string): string { return \"hello \" + name }\n",
		"src/main.ts":   "export function main() {}\n", // the same path and name as app's: told apart by repository
	}), "aaaa")
	app = index(t, write(t, filepath.Join(root, "app"), map[string]string{
		"package.json": `{"name": "app", "dependencies": ` + deps + `}`,
		"src/main.ts": "import { hello, Greeter } from \"@acme/greet\";\nimport { local } from \"./local\";\n\n" +
			"export function main() {\n  hello(\"x\");\n  new Greeter().greet(\"y\");\n  local();\n}\n",
		"src/local.ts": "export function local() {}\n",
	}), "bbbb")
	return lib, app
}

// TestMergeNPMAcrossRepositories: an application's import of a package by
// name reaches the repository whose package.json has that name, through
// its re-exports and its outDir, when the application declares the
// dependency; not without the declaration, and not when two repositories
// have the name.
func TestMergeNPMAcrossRepositories(t *testing.T) {
	root := t.TempDir()
	lib, app := npmRepos(t, filepath.Join(root, "yes"), `{"@acme/greet": "^1"}`)
	e, st := merge(t, union.Part{Repo: "lib", Snapshot: lib}, union.Part{Repo: "app", Snapshot: app})
	hello := find(t, e, "lib", schemas.KindFunction, "src/hello.hello")
	if got, want := edgesInto(e, hello, schemas.EdgeCalls), []string{"src/main.main @app/src/main.ts"}; !slices.Equal(got, want) {
		t.Errorf("callers of hello = %q, want %q", got, want)
	}
	greet := find(t, e, "lib", schemas.KindMethod, "src.Greeter.greet")
	if got, want := edgesInto(e, greet, schemas.EdgeCalls), []string{"src/main.main @app/src/main.ts"}; !slices.Equal(got, want) {
		t.Errorf("callers of greet = %q, want %q", got, want)
	}
	local := find(t, e, "app", schemas.KindFunction, "src/local.local")
	if got := edgesInto(e, local, schemas.EdgeCalls); len(got) != 1 {
		t.Errorf("app's own call of local = %q, want one", got)
	}
	if st.Cross == 0 {
		t.Error("no edge across the npm repositories")
	}

	lib, app = npmRepos(t, filepath.Join(root, "undeclared"), `{"other": "1"}`)
	if _, st := merge(t, union.Part{Repo: "lib", Snapshot: lib}, union.Part{Repo: "app", Snapshot: app}); st.Cross != 0 {
		t.Errorf("without the dependency declared, Cross = %d, want 0", st.Cross)
	}

	lib, app = npmRepos(t, filepath.Join(root, "fork"), `{"@acme/greet": "^1"}`)
	e, st = merge(t, union.Part{Repo: "lib", Snapshot: lib}, union.Part{Repo: "fork", Snapshot: lib}, union.Part{Repo: "app", Snapshot: app})
	if st.Cross != 0 {
		t.Errorf("with a fork, Cross = %d, want 0", st.Cross)
	}
	if got := edgesInto(e, find(t, e, "fork", schemas.KindFunction, "src/hello.hello"), schemas.EdgeCalls); len(got) != 0 {
		t.Errorf("with a fork, callers of hello = %q, want none", got)
	}
}

func pythonRepos(t *testing.T, root, libProject, deps string) (lib, app *snapshot.Snapshot) {
	lib = index(t, write(t, filepath.Join(root, "lib"), map[string]string{
		"pyproject.toml":             libProject,
		"src/acme_tools/__init__.py": "from .text import shout\n",
		"src/acme_tools/text.py":     "def shout(s):\n    return s.upper()\n",
	}), "aaaa")
	app = index(t, write(t, filepath.Join(root, "app"), map[string]string{
		"pyproject.toml":  "[project]\nname = \"app\"\ndependencies = " + deps + "\n",
		"app/__init__.py": "",
		"app/main.py":     "from acme_tools import shout\nimport acme_tools.text\n\n\ndef main():\n    shout(\"x\")\n    acme_tools.text.shout(\"y\")\n",
	}), "bbbb")
	return lib, app
}

// TestMergePythonAcrossRepositories: an import of a module reaches another
// repository only when the importing project depends on the distribution
// (named as PEP 503 normalizes it) whose pyproject.toml is above the module.
func TestMergePythonAcrossRepositories(t *testing.T) {
	root := t.TempDir()
	project := "[project]\nname = \"Acme.Tools\"\n"
	lib, app := pythonRepos(t, filepath.Join(root, "yes"), project, `["acme_tools>=1.0; python_version > '3.8'"]`)
	e, st := merge(t, union.Part{Repo: "lib", Snapshot: lib}, union.Part{Repo: "app", Snapshot: app})
	shout := find(t, e, "lib", schemas.KindFunction, "acme_tools.text.shout")
	if got, want := edgesInto(e, shout, schemas.EdgeCalls), []string{"app.main.main @app/app/main.py", "app.main.main @app/app/main.py"}; !slices.Equal(got, want) {
		t.Errorf("callers of shout = %q, want %q", got, want)
	}
	if st.Cross == 0 {
		t.Error("no edge across the Python repositories")
	}

	lib, app = pythonRepos(t, filepath.Join(root, "undeclared"), project, `["requests"]`)
	if _, st := merge(t, union.Part{Repo: "lib", Snapshot: lib}, union.Part{Repo: "app", Snapshot: app}); st.Cross != 0 {
		t.Errorf("without the dependency declared, Cross = %d, want 0", st.Cross)
	}
	// A tree with no pyproject.toml is no distribution: nothing proves
	// that its acme_tools is the one the application installs.
	lib, app = pythonRepos(t, filepath.Join(root, "nameless"), "[tool.black]\nline-length = 100\n", `["acme-tools"]`)
	if _, st := merge(t, union.Part{Repo: "lib", Snapshot: lib}, union.Part{Repo: "app", Snapshot: app}); st.Cross != 0 {
		t.Errorf("into a tree with no distribution, Cross = %d, want 0", st.Cross)
	}
}
