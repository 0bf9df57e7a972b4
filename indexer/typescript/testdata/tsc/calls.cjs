// calls.cjs prints what the TypeScript compiler's checker resolves every
// call and instantiation under a folder to, one JSON object a line, for
// the calls whose declaration is in a file of that folder.
//
//	node calls.cjs TYPESCRIPT_PACKAGE_DIR ROOT
//
// Each line: {"file","line","col","kind","declFile","declLine","name",
// "container"}; file and declFile relative to ROOT with slashes, line and
// col 1-based (col in UTF-16 units) of the callee's name (the m of x.y.m()),
// kind "call" or "new". name is the declaration's name ("constructor"
// declarations are reported as their class: a call is to the class it
// constructs), container the name of the nearest named declaration around
// it ("" at the top level of a module).
//
// The program is every .ts, .tsx, .mts and .cts file under ROOT (outside
// node_modules), with a tsconfig.json at ROOT lending its paths and
// baseUrl. A call's declaration is that of the signature the checker
// resolved it to; where that is a signature written in a type (a value
// typed as a function) or there is none (a value of type any), it is the
// declaration of the symbol the callee names, aliases followed. Only
// definitions count (see definition): calls the checker cannot resolve,
// resolves to a parameter or to a property a type alone describes, or
// resolves outside ROOT (lib.d.ts, node_modules) are not printed.
"use strict";

const fs = require("fs");
const path = require("path");

const [tsDir, rootArg] = process.argv.slice(2);
if (!tsDir || !rootArg) {
  process.stderr.write("usage: node calls.cjs TYPESCRIPT_PACKAGE_DIR ROOT\n");
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

const options = {
  noEmit: true,
  skipLibCheck: true,
  allowJs: false,
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.Preserve,
  lib: ["lib.esnext.full.d.ts"],
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  experimentalDecorators: true,
  strict: true,
};
// A tsconfig.json at the root lends its module paths.
const tsconfig = path.join(root, "tsconfig.json");
if (fs.existsSync(tsconfig)) {
  const read = ts.readConfigFile(tsconfig, ts.sys.readFile);
  if (read.config) {
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
    if (parsed.options.paths) options.paths = parsed.options.paths;
    if (parsed.options.baseUrl) options.baseUrl = parsed.options.baseUrl;
  }
}

const files = walkDir(root, []);
const program = ts.createProgram(files, options);
const checker = program.getTypeChecker();

function rel(fileName) {
  const r = path.relative(root, fileName);
  if (r.startsWith("..") || path.isAbsolute(r) || r.split(path.sep).includes("node_modules")) return null;
  return r.split(path.sep).join("/");
}

// calleeName returns the token that names what a call calls.
function calleeName(expr) {
  for (;;) {
    if (ts.isParenthesizedExpression(expr) || ts.isNonNullExpression(expr) || ts.isAsExpression(expr) ||
        ts.isTypeAssertionExpression(expr) || ts.isSatisfiesExpression(expr)) {
      expr = expr.expression;
    } else if (ts.isExpressionWithTypeArguments(expr)) {
      expr = expr.expression;
    } else {
      break;
    }
  }
  if (ts.isPropertyAccessExpression(expr)) return expr.name;
  if (ts.isElementAccessExpression(expr)) return expr.argumentExpression;
  return expr;
}

// holderName names an unnamed function, class or object literal by what
// holds it: `const f = () => {}` is f.
function holderName(node) {
  let p = node.parent;
  while (p && (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p) ||
               ts.isNonNullExpression(p) || ts.isTypeAssertionExpression(p))) {
    p = p.parent;
  }
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) &&
      p.name && !ts.isObjectBindingPattern(p.name) && !ts.isArrayBindingPattern(p.name)) {
    return nameText(p.name);
  }
  if (p && ts.isExportAssignment(p)) return "default";
  return null;
}

// nameText returns a property name as written, without the quotes of a
// string literal.
function nameText(n) {
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  return n.getText();
}

// ownName returns a declaration's own name, or null when it has none.
function ownName(d) {
  if (ts.isConstructorDeclaration(d)) return "constructor";
  if (ts.isArrowFunction(d) || ts.isFunctionExpression(d) || ts.isClassExpression(d) || ts.isObjectLiteralExpression(d)) {
    return holderName(d) ?? (d.name ? nameText(d.name) : null);
  }
  if (d.name && !ts.isObjectBindingPattern(d.name) && !ts.isArrayBindingPattern(d.name)) return nameText(d.name);
  if ((ts.isFunctionDeclaration(d) || ts.isClassDeclaration(d)) &&
      d.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return "default";
  return null;
}

const containers = new Set([
  ts.SyntaxKind.ClassDeclaration, ts.SyntaxKind.ClassExpression, ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.ModuleDeclaration, ts.SyntaxKind.EnumDeclaration, ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration, ts.SyntaxKind.Constructor, ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor, ts.SyntaxKind.ObjectLiteralExpression,
]);

// container returns the name of the nearest named declaration around d.
function container(d) {
  for (let p = d.parent; p && !ts.isSourceFile(p); p = p.parent) {
    if (ts.isModuleBlock(p)) continue;
    if (!containers.has(p.kind)) continue;
    const n = ownName(p);
    if (n !== null) return n;
  }
  return "";
}

// inType reports whether d is a signature written in a type (a function
// type, a call or construct signature): it says how to call a value, not
// which value is called.
function inType(d) {
  switch (d.kind) {
    case ts.SyntaxKind.FunctionType:
    case ts.SyntaxKind.ConstructorType:
    case ts.SyntaxKind.CallSignature:
    case ts.SyntaxKind.ConstructSignature:
      return true;
  }
  return ts.isJSDoc?.(d) || d.kind >= ts.SyntaxKind.FirstJSDocNode && d.kind <= ts.SyntaxKind.LastJSDocNode;
}

// definition returns the declaration that defines code a call runs: a
// function, method (of a class or an interface), class (for its
// constructor) or a variable or property holding a function or class
// expression. Values a type alone describes (a parameter, a property
// typed as a function) are not definitions: the checker does not know
// which code they hold.
function definition(d) {
  if (ts.isConstructorDeclaration(d)) return d.parent;
  if (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isMethodSignature(d) ||
      ts.isClassDeclaration(d) || ts.isClassExpression(d) || ts.isArrowFunction(d) || ts.isFunctionExpression(d)) {
    return d;
  }
  if ((ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d) || ts.isPropertyAssignment(d)) && d.initializer) {
    let init = d.initializer;
    while (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init)) return d;
  }
  return null;
}

function symbolDecl(node) {
  let s = checker.getSymbolAtLocation(node);
  if (s && s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s);
  if (!s) return undefined;
  return s.valueDeclaration ?? s.declarations?.[0];
}

function report(sf, node, kind) {
  const name = node.expression.kind === ts.SyntaxKind.SuperKeyword ? node.expression : calleeName(node.expression);
  let decl;
  if (kind === "new") {
    // The class constructed, not the constructor it inherits.
    const d = symbolDecl(name);
    if (d && (ts.isClassDeclaration(d) || ts.isClassExpression(d))) decl = d;
  }
  if (!decl) {
    const sig = checker.getResolvedSignature(node);
    decl = sig?.declaration;
    if (!decl || inType(decl)) decl = symbolDecl(name) ?? decl;
  }
  decl = decl && definition(decl);
  if (!decl) return;
  const declFile = rel(decl.getSourceFile().fileName);
  if (declFile === null) return;
  const declName = ownName(decl);
  if (declName === null) return;
  const pos = sf.getLineAndCharacterOfPosition(name.getStart(sf));
  const dpos = decl.getSourceFile().getLineAndCharacterOfPosition((decl.name ?? decl).getStart());
  process.stdout.write(JSON.stringify({
    file: rel(sf.fileName), line: pos.line + 1, col: pos.character + 1, kind,
    declFile, declLine: dpos.line + 1, name: declName, container: container(decl),
  }) + "\n");
}

for (const sf of program.getSourceFiles()) {
  if (sf.isDeclarationFile || rel(sf.fileName) === null) continue;
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind !== ts.SyntaxKind.ImportKeyword) report(sf, node, "call");
    else if (ts.isNewExpression(node)) report(sf, node, "new");
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
