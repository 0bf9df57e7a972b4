"""Print what Jedi resolves every call of a Python tree to.

Usage: python3 calls.py ROOT

Walks the .py files under ROOT with ast and, for every call whose callee
is a name (f()) or an attribute (a.b.f()), asks Jedi at the name (f)
where it is defined. The first line is a header, {"jedi": version,
"python": version}; then one JSON object per call:

    {"file": "pkg/mod.py", "line": 12, "col": 9, "name": "f",
     "targets": [{"file": "pkg/other.py", "line": 3, "name": "f",
                  "type": "function", "tree": true}]}

line is 1-based, col the 1-based byte column of the name (as snap writes
positions). A target is a function or a class: Jedi's goto, following
imports, names the definition; where that is a variable or parameter
(h = f; h()), infer names what it holds, and only its functions and
classes are kept. file is relative to ROOT when tree is true, else the
absolute path ("" for a builtin without one); line is the line of the
def or class name. targets is empty where Jedi could not tell. Calls of
other expressions (f()(), a[0]()) are not asked about, nor calls that
start from an unannotated parameter (see Guesses), which print "guess":
true and no targets.

Works with Jedi 0.18 (Debian's python3-jedi) and later.
"""

import ast
import json
import os
import sys

import jedi

CALLABLE = ("function", "class")


def target(root, name):
    path = str(name.module_path) if name.module_path else ""
    tree = path.startswith(root + os.sep) and path.endswith(".py")
    return {
        "file": os.path.relpath(path, root).replace(os.sep, "/") if tree else path,
        "line": name.line,
        "name": name.name,
        "type": name.type,
        "tree": tree,
    }


def resolve(script, line, col, own):
    """The functions and classes the name at line:col (a character
    column) is defined as. Definitions in the stubs Jedi bundles for
    third-party packages are left out when the package is one of own, the
    tree's top-level packages: Jedi 0.18 ships stubs of an old click, and
    reads them in place of the tree's own code."""
    try:
        names = script.goto(line, col, follow_imports=True)
        out = [n for n in names if n.type in CALLABLE]
        if len(out) < len(names):  # a variable: what does it hold?
            out += [n for n in script.infer(line, col) if n.type in CALLABLE]
        return [n for n in out if not bundled(n, own)]
    except Exception as e:  # a Jedi failure leaves this call out
        print("jedi: %s:%d:%d: %r" % (script.path, line, col, e), file=sys.stderr)
        return []


JEDI_DIR = os.path.dirname(os.path.realpath(jedi.__file__)) + os.sep


def bundled(name, own):
    """Whether name is defined in a stub Jedi bundles for a package of own."""
    path = os.path.realpath(str(name.module_path)) if name.module_path else ""
    top = (name.module_name or "").split(".")[0]
    return path.startswith(JEDI_DIR) and path.endswith(".pyi") and top in own


def callee(call):
    """The line and byte offset of the name a call's callee ends with."""
    f = call.func
    if isinstance(f, ast.Name):
        return f.lineno, f.col_offset, f.id
    if isinstance(f, ast.Attribute):
        return f.end_lineno, f.end_col_offset - len(f.attr.encode()), f.attr
    return None


def root_name(f):
    """The name a callee's chain of attributes and calls starts from."""
    while isinstance(f, (ast.Attribute, ast.Call)):
        f = f.value if isinstance(f, ast.Attribute) else f.func
    return f.id if isinstance(f, ast.Name) else None


class Guesses(ast.NodeVisitor):
    """Finds the calls whose callee starts from an unannotated parameter
    (cls(...), policy.fold(...)), outside an `if isinstance(p, C):` block.
    Jedi types such a parameter by its default value and the values the
    function assigns it (cls=None, then cls = JSONEncoder): a guess, as a
    caller may pass anything; such calls are not judged."""

    def __init__(self):
        self.params = [set()]  # unannotated parameters in scope
        self.guesses = set()  # (line, byte offset) of their calls

    def visit_FunctionDef(self, node, first_is_receiver=False):
        a = node.args
        names = a.posonlyargs + a.args + a.kwonlyargs
        params = {x.arg for x in names if x.annotation is None}
        params |= {x.arg for x in (a.vararg, a.kwarg) if x is not None and x.annotation is None}
        if first_is_receiver and names:
            params.discard(names[0].arg)
        annotated = {x.arg for x in names if x.annotation is not None}
        self.params.append((self.params[-1] - annotated) | params)
        for d in getattr(node, "decorator_list", []):
            self.visit(d)
        for child in node.body if isinstance(node.body, list) else [node.body]:
            self.visit(child)
        self.params.pop()

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_ClassDef(self, node):
        for child in node.bases + node.keywords + node.decorator_list:
            self.visit(child)
        for child in node.body:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in child.decorator_list)
                self.visit_FunctionDef(child, first_is_receiver=not static)
            else:
                self.visit(child)

    def visit_If(self, node):
        self.visit(node.test)
        t = node.test
        narrowed = None
        if (isinstance(t, ast.Call) and isinstance(t.func, ast.Name) and t.func.id == "isinstance"
                and t.args and isinstance(t.args[0], ast.Name)):
            narrowed = t.args[0].id
        self.params.append(self.params[-1] - {narrowed})
        for child in node.body:
            self.visit(child)
        self.params.pop()
        for child in node.orelse:
            self.visit(child)

    def visit_Call(self, node):
        c = callee(node)
        if c and root_name(node.func) in self.params[-1]:
            self.guesses.add(c[:2])
        self.generic_visit(node)


def calls(root, path, project, own):
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        code = raw.decode("utf-8")
        tree = ast.parse(raw, path)
    except (SyntaxError, ValueError, UnicodeDecodeError) as e:
        print("skip %s: %s" % (path, e), file=sys.stderr)
        return
    lines = raw.split(b"\n")
    script = jedi.Script(code, path=path, project=project)
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    sites = sorted({callee(n) for n in ast.walk(tree) if isinstance(n, ast.Call)} - {None})
    guesses = Guesses()
    guesses.visit(tree)
    for line, off, name in sites:
        if (line, off) in guesses.guesses:
            yield {"file": rel, "line": line, "col": off + 1, "name": name, "targets": [], "guess": True}
            continue
        col = len(lines[line - 1][:off].decode("utf-8"))
        seen, targets = set(), []
        for n in resolve(script, line, col, own):
            t = target(root, n)
            if (t["file"], t["line"], t["name"]) not in seen:
                seen.add((t["file"], t["line"], t["name"]))
                targets.append(t)
        yield {"file": rel, "line": line, "col": off + 1, "name": name, "targets": targets}


def main():
    # A parameter's type inferred from the calls of its function is a
    # guess (another caller may pass anything): not a judge's answer.
    jedi.settings.dynamic_params = False
    jedi.settings.dynamic_params_for_other_modules = False
    root = os.path.realpath(sys.argv[1])
    project = jedi.Project(root)
    print(json.dumps({"jedi": jedi.__version__, "python": sys.version.split()[0]}))
    own = {f[:-3] if f.endswith(".py") else f for f in os.listdir(root)}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            if f.endswith(".py"):
                for c in calls(root, os.path.join(dirpath, f), project, own):
                    print(json.dumps(c))


if __name__ == "__main__":
    main()
