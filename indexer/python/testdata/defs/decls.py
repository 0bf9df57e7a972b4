"""decls.py prints the declarations of every .py file under a folder that
a code graph holds as symbols, as Python's own compiler sees them.

    python3 decls.py ROOT

One JSON object a line: {"file", "line", "name"}: file relative to ROOT
with slashes, the line of the declaration, and its name inside its
module, dotted (Order.add, retry.decorate.wrapper).

The scopes come from the compiler's symbol tables (symtable): functions
and classes, nested ones included, under the scope that defines them;
names a module or class scope assigns by an assignment statement are its
variables and class attributes, as are the names a function declares
global and assigns. The attributes a method assigns through its first
parameter (self.x = ...) are the class's fields. Lambdas, comprehensions,
and the names assigned in a function body are locals, not printed. A file
the compiler refuses has no symbol table: it is printed as
{"file", "skipped": true}.
"""
import ast
import json
import os
import symtable
import sys


def emit(file, line, name):
    print(json.dumps({"file": file, "line": line, "name": name}))


def defs(tree):
    """Maps (line, name) of each def and class statement to its node."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[(node.lineno, node.name)] = node
    return out


def assigned_lines(body):
    """Maps the names a scope's statements assign to the first line doing
    so, looking into if, try, with and loop blocks (they run in the same
    scope) but not into nested functions and classes."""
    out = {}
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        targets = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            targets = [stmt.target]
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    out.setdefault(n.id, n.lineno)
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                for name, line in assigned_lines(inner).items():
                    out.setdefault(name, line)
    return out


def self_fields(fn):
    """The attributes a method assigns through its first parameter."""
    args = fn.args.posonlyargs + fn.args.args
    if not args:
        return {}
    me = args[0].arg
    out = {}
    for n in ast.walk(fn):
        targets = []
        if isinstance(n, ast.Assign):
            targets = n.targets
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign)):
            targets = [n.target]
        for t in targets:
            for a in ast.walk(t):
                if (isinstance(a, ast.Attribute) and isinstance(a.ctx, ast.Store)
                        and isinstance(a.value, ast.Name) and a.value.id == me):
                    out.setdefault(a.attr, a.lineno)
    return out


def walk(file, table, prefix, body, nodes):
    """Prints the declarations of one scope and its children."""
    kind = table.get_type()
    if kind in ("module", "class"):
        lines = assigned_lines(body)
        children = {c.get_name() for c in table.get_children()}
        for sym in table.get_symbols():
            name = sym.get_name()
            if sym.is_assigned() and name in lines and name not in children:
                emit(file, lines[name], prefix + name)
    if kind == "function":
        lines = assigned_lines(body)
        for sym in table.get_symbols():
            if sym.is_declared_global() and sym.is_assigned() and sym.get_name() in lines:
                emit(file, lines[sym.get_name()], sym.get_name())  # global x; x = ...
    fields = {}
    for child in table.get_children():
        ckind = child.get_type()
        if ckind not in ("function", "class"):
            continue  # lambdas, comprehensions, annotation and type scopes
        node = nodes.get((child.get_lineno(), child.get_name()))
        if node is None:
            continue
        emit(file, node.lineno, prefix + child.get_name())
        if kind == "class" and ckind == "function":
            for attr, at in self_fields(node).items():
                fields.setdefault(attr, at)
        walk(file, child, prefix + child.get_name() + ".", node.body, nodes)
    if kind == "class":
        declared = {s.get_name() for s in table.get_symbols() if s.is_assigned()}
        for attr, at in fields.items():
            if attr not in declared:
                emit(file, at, prefix + attr)


def main():
    root = os.path.realpath(sys.argv[1])
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            try:
                with open(path, encoding="utf-8") as f:
                    src = f.read()
                tree = ast.parse(src, path)
                table = symtable.symtable(src, path, "exec")
            except (SyntaxError, UnicodeDecodeError, ValueError):
                print(json.dumps({"file": rel, "skipped": True}))
                continue
            walk(rel, table, "", tree.body, defs(tree))


if __name__ == "__main__":
    main()
