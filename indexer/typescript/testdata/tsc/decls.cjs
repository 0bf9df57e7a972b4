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
// aliases, enums, namespaces and variables, and an anonymous default
// export as "default"; in a class: methods, accessors, properties, the
// constructor and parameter properties; in an interface: method and
// property signatures; in an enum: its members; in a variable's object
// literal, the methods and the properties holding a function or a class.
// Each name of a destructuring declaration is declared; a variable
// holding require() is an import.
// `declare global` adds to the top level. Index signatures and
// `declare module "…"` blocks are not printed.
//
// Inside a function's body (a callback's too), the functions, classes,
// interfaces, enums and type aliases it declares, the variables it binds
// to a function or class, and named class expressions are declared under
// the nearest enclosing function, class or namespace with a name
// (Cart.total.helper; a test callback's helper under its module), as the
// graph names them (schemas/languages.md).
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

// binding prints a variable declaration: at the top level of a module or
// namespace each name of a destructuring pattern, and of an object
// literal's value the methods and the properties holding a function or a
// class; in a function body only a variable bound to a function or a
// class. A require() call is an import, not a declaration.
function binding(sf, file, d, name, init, prefix, inBody) {
  const value = unwrap(init);
  if (value && ts.isCallExpression(value) && ts.isIdentifier(value.expression) && value.expression.text === "require") return;
  if (ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name)) {
    if (!inBody) {
      for (const el of name.elements) {
        if (!ts.isOmittedExpression(el)) binding(sf, file, el, el.name, null, prefix, inBody);
      }
    }
    visit(sf, file, init, prefix);
    return;
  }
  if (inBody && !isFunctionValue(value)) {
    visit(sf, file, init, prefix);
    return;
  }
  const full = emit(sf, file, d, name, prefix);
  if (full === null) return;
  if (value && ts.isObjectLiteralExpression(value)) {
    for (const p of value.properties) {
      if (ts.isMethodDeclaration(p) || (ts.isPropertyAssignment(p) && isFunctionValue(unwrap(p.initializer)))) {
        const member = emit(sf, file, p, p.name, full);
        visit(sf, file, ts.isMethodDeclaration(p) ? p.body : p.initializer, member ?? full);
      } else {
        visit(sf, file, p, full);
      }
    }
    return;
  }
  if (value && ts.isClassExpression(value)) {
    members(sf, file, value, full);
    return;
  }
  // A function value is named by the variable; what other values'
  // callbacks declare (an IIFE's) stays under the enclosing name.
  visit(sf, file, init, isFunctionValue(value) ? full : prefix);
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

// members prints a class's, interface's or enum's members, and what the
// bodies of its methods declare.
function members(sf, file, decl, prefix) {
  for (const m of decl.members) {
    if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m) || ts.isPropertyDeclaration(m) ||
        ts.isPropertySignature(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m) ||
        ts.isEnumMember(m)) {
      const full = emit(sf, file, m, m.name, prefix);
      if (ts.isPropertyDeclaration(m)) {
        visit(sf, file, m.initializer, isFunctionValue(unwrap(m.initializer)) && full !== null ? full : prefix);
      } else if (m.body) {
        visit(sf, file, m.body, full ?? prefix);
      }
    } else if (ts.isConstructorDeclaration(m)) {
      const line = sf.getLineAndCharacterOfPosition(m.getStart(sf)).line + 1;
      process.stdout.write(JSON.stringify({ file, line, name: prefix + ".constructor" }) + "\n");
      for (const p of m.parameters) {
        if (propertyModifiers.some((k) => hasModifier(p, k))) emit(sf, file, p, p.name, prefix);
      }
      visit(sf, file, m.body, prefix + ".constructor");
    }
  }
}

// declaration prints one statement's declarations, at the top level of a
// module or namespace or (inBody) in a function's body.
function declaration(sf, file, s, prefix, inBody) {
  const isDefault = !s.name && hasModifier(s, ts.SyntaxKind.DefaultKeyword);
  if (isDefault && (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s))) {
    // export default function () {}: the module's default
    const line = sf.getLineAndCharacterOfPosition(s.getStart(sf)).line + 1;
    const full = prefix ? prefix + ".default" : "default";
    process.stdout.write(JSON.stringify({ file, line, name: full }) + "\n");
    if (ts.isClassDeclaration(s)) members(sf, file, s, full);
    else visit(sf, file, s.body, full);
  } else if (ts.isFunctionDeclaration(s)) {
    const full = emit(sf, file, s, s.name, prefix);
    visit(sf, file, s.body, full ?? prefix);
  } else if (ts.isTypeAliasDeclaration(s)) {
    emit(sf, file, s, s.name, prefix);
  } else if (ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isEnumDeclaration(s)) {
    const full = emit(sf, file, s, s.name, prefix);
    if (full !== null) members(sf, file, s, full);
  } else if (ts.isModuleDeclaration(s) && ts.isIdentifier(s.name) && s.name.text === "global" &&
             s.flags & ts.NodeFlags.GlobalAugmentation) {
    if (s.body && ts.isModuleBlock(s.body)) statements(sf, file, s.body.statements, prefix);
  } else if (ts.isModuleDeclaration(s) && ts.isIdentifier(s.name) && !inBody) {
    let body = s.body;
    let full = emit(sf, file, s, s.name, prefix);
    while (body && ts.isModuleDeclaration(body)) { // namespace a.b.c
      full = emit(sf, file, body, body.name, full);
      body = body.body;
    }
    if (body && ts.isModuleBlock(body)) statements(sf, file, body.statements, full);
  } else if (ts.isVariableStatement(s)) {
    for (const d of s.declarationList.declarations) binding(sf, file, d, d.name, d.initializer, prefix, inBody);
  } else {
    return false;
  }
  return true;
}

// statements prints the declarations of a module's or namespace's body.
function statements(sf, file, list, prefix) {
  for (const s of list) {
    if (!declaration(sf, file, s, prefix, false)) visit(sf, file, s, prefix);
  }
}

// visit prints what the functions under node (callbacks included)
// declare, under prefix.
function visit(sf, file, node, prefix) {
  if (!node) return;
  if (ts.isBlock(node) || ts.isCaseClause(node) || ts.isDefaultClause(node)) {
    for (const s of node.statements) {
      if (!declaration(sf, file, s, prefix, true)) visit(sf, file, s, prefix);
    }
    return;
  }
  if (ts.isClassExpression(node)) { // unbound: a named one is declared
    const full = node.name ? emit(sf, file, node, node.name, prefix) : null;
    members(sf, file, node, full ?? prefix);
    return;
  }
  ts.forEachChild(node, (child) => visit(sf, file, child, prefix));
}

const program = ts.createProgram(walkDir(root, []), { noEmit: true, allowJs: false, noResolve: true });
for (const sf of program.getSourceFiles()) {
  const r = path.relative(root, sf.fileName);
  if (r.startsWith("..") || path.isAbsolute(r)) continue;
  statements(sf, r.split(path.sep).join("/"), sf.statements, "");
}
