// decls.cjs prints the declarations the TypeScript compiler's parser finds
// under a folder that a code graph holds as symbols, one JSON object a
// line.
//
//	node decls.cjs TYPESCRIPT_PACKAGE_DIR ROOT
//
// Each line: {"file","line","name"}: file relative to ROOT with slashes,
// the 1-based line of the declaration's name, and its name inside its
// module: the names of the namespaces, classes, interfaces and enums
// around it and its own, joined by dots (Money.round, Cart.add).
//
// Declared are, at the top level of a module or namespace: functions
// (overloads and implementation are one), classes, interfaces, type
// aliases, enums, namespaces and variables; in a
// class: methods, accessors, properties, the constructor and parameter
// properties; in an interface: method and property signatures; in an enum:
// its members; in a variable's object literal, the methods and the
// properties holding a function or a class. Each name of a destructuring
// declaration is declared; a variable holding require() is an import.
// `declare global` adds to the top level. Declarations inside function
// bodies, index signatures and `declare module "…"` blocks are not
// printed.
"use strict";

const fs = require("fs");
const path = require("path");

const [tsDir, rootArg] = process.argv.slice(2);
if (!tsDir || !rootArg) {
  process.stderr.write("usage: node decls.cjs TYPESCRIPT_PACKAGE_DIR ROOT\n");
  process.exit(2);
}
const ts = require(path.resolve(tsDir));
const root = fs.realpathSync(path.resolve(rootArg));

function walkDir(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkDir(p, out);
    else if (e.isFile() && /\.(ts|tsx|mts|cts)$/.test(e.name)) out.push(p);
  }
  return out;
}

// simpleName returns a declaration name as written, without the quotes
// of a string literal, a computed name as written ([Symbol.iterator]),
// or null for a pattern.
function simpleName(n, sf) {
  if (!n) return null;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  if (ts.isComputedPropertyName(n)) return n.getText(sf);
  return null;
}

// unwrap returns an expression without the parentheses, casts and
// satisfies clauses around it.
function unwrap(e) {
  while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) ||
               ts.isTypeAssertionExpression(e) || ts.isNonNullExpression(e))) {
    e = e.expression;
  }
  return e;
}

const isFunctionValue = (e) => e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e) || ts.isClassExpression(e));

// binding prints a variable declaration: each name of a destructuring
// pattern, and of an object literal's value the methods and the
// properties holding a function or a class. A require() call is an
// import, not a declaration.
function binding(sf, file, d, name, init, prefix) {
  const value = unwrap(init);
  if (value && ts.isCallExpression(value) && ts.isIdentifier(value.expression) && value.expression.text === "require") return;
  if (ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name)) {
    for (const el of name.elements) {
      if (!ts.isOmittedExpression(el)) binding(sf, file, el, el.name, null, prefix);
    }
    return;
  }
  const full = emit(sf, file, d, name, prefix);
  if (full === null || !value || !ts.isObjectLiteralExpression(value)) return;
  for (const p of value.properties) {
    if (ts.isMethodDeclaration(p) || (ts.isPropertyAssignment(p) && isFunctionValue(unwrap(p.initializer)))) {
      emit(sf, file, p, p.name, full);
    }
  }
}

function emit(sf, file, node, nameNode, prefix) {
  const name = simpleName(nameNode, sf);
  if (name === null) return null;
  const full = prefix ? prefix + "." + name : name;
  const line = sf.getLineAndCharacterOfPosition(nameNode.getStart(sf)).line + 1;
  process.stdout.write(JSON.stringify({ file, line, name: full }) + "\n");
  return full;
}

const hasModifier = (node, kind) => (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
const propertyModifiers = [
  ts.SyntaxKind.PublicKeyword, ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.ReadonlyKeyword,
];

// members prints a class's, interface's or enum's members.
function members(sf, file, decl, prefix) {
  for (const m of decl.members) {
    if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m) || ts.isPropertyDeclaration(m) ||
        ts.isPropertySignature(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m) ||
        ts.isEnumMember(m)) {
      emit(sf, file, m, m.name, prefix);
    } else if (ts.isConstructorDeclaration(m)) {
      const line = sf.getLineAndCharacterOfPosition(m.getStart(sf)).line + 1;
      process.stdout.write(JSON.stringify({ file, line, name: prefix + ".constructor" }) + "\n");
      for (const p of m.parameters) {
        if (propertyModifiers.some((k) => hasModifier(p, k))) emit(sf, file, p, p.name, prefix);
      }
    }
  }
}

// statements prints the declarations of a module's or namespace's body.
function statements(sf, file, list, prefix) {
  for (const s of list) {
    if (ts.isFunctionDeclaration(s) || ts.isTypeAliasDeclaration(s)) {
      emit(sf, file, s, s.name, prefix);
    } else if (ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isEnumDeclaration(s)) {
      const full = emit(sf, file, s, s.name, prefix);
      if (full !== null) members(sf, file, s, full);
    } else if (ts.isModuleDeclaration(s) && ts.isIdentifier(s.name) && s.name.text === "global" &&
               s.flags & ts.NodeFlags.GlobalAugmentation) {
      if (s.body && ts.isModuleBlock(s.body)) statements(sf, file, s.body.statements, prefix);
    } else if (ts.isModuleDeclaration(s) && ts.isIdentifier(s.name)) {
      let body = s.body;
      let full = emit(sf, file, s, s.name, prefix);
      while (body && ts.isModuleDeclaration(body)) { // namespace a.b.c
        full = emit(sf, file, body, body.name, full);
        body = body.body;
      }
      if (body && ts.isModuleBlock(body)) statements(sf, file, body.statements, full);
    } else if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) binding(sf, file, d, d.name, d.initializer, prefix);
    }
  }
}

const program = ts.createProgram(walkDir(root, []), { noEmit: true, allowJs: false, noResolve: true });
for (const sf of program.getSourceFiles()) {
  const r = path.relative(root, sf.fileName);
  if (r.startsWith("..") || path.isAbsolute(r)) continue;
  statements(sf, r.split(path.sep).join("/"), sf.statements, "");
}
