// Type flow: how the resolver knows what a receiver is.
//
// This file holds the part of resolution that follows values and types
// through code; resolve.go turns its answers into edges and finds modules,
// and expr.go writes the Exprs it reads. Other languages' resolvers can
// mirror it.
//
// A type is a value (see value): what an expression evaluates to, as far
// as calls are concerned. Its kind says what it is (a module's namespace,
// a namespace or enum, a class or interface, an instance of one, a
// function or method, an object literal, a builtin) and its node which
// declaration. There are no structural, union or generic types: a type is
// one declaration or it is unknown, with the reason. A value of a builtin
// type (string, an array, a Map) is one kind whose members make no edge.
//
// Where it is computed. Extraction, which sees one file, writes each
// expression a call or a declaration depends on as an Expr (expr.go): a
// head and steps, with each local variable replaced by its annotation or
// by the one value all its assignments give it, and each parameter without
// annotation by its place in the call its function is an argument of. The
// resolver, which sees the whole snapshot, evaluates an Expr left to right
// in a context (the scope names are looked up from, the enclosing class):
//
//	head        a name, from the scope outwards, through imports and
//	            re-exports (lookup, member); {T} an instance of type T;
//	            this, class, super; #id one node; {members} an object
//	            literal; this[A,X,m] this in a method of an object
//	            literal of type A<X>, an instance of X when the type
//	            alias A is the mapped type that gives each method of X
//	            a this of type X (methodThis); (x instanceof C) x where
//	            the check holds, narrowed as the checker narrows when
//	            the classes' bases decide it (narrow); (a|b) the value
//	            both branches of a conditional agree on (either)
//	.name       a member: of a module (its exports), a namespace, a class
//	            or instance along its heritage chain (classMember), an
//	            object literal (objectMember); .[] an element of an
//	            array (for-of)
//	()          a call: a class gives an instance, a function its result
//	            (result): its return annotation, the receiver for this,
//	            what its overloads agree on; <>() with type arguments
//	@arg:param  a parameter of a callback: the type the callee declares
//	            for it (callbackParam); @arg:this the callback's this
//
// Declarations carry the facts steps read: type (a variable's annotation,
// else its value), result (a function's return annotation), extends. A
// variable is read (deref) once and remembered (vars); busy breaks cycles.
//
// Bounds: an evaluation nests at most maxHops*4 deep (depth), an import or
// re-export chain at most maxHops hops, and a cycle of variables is
// unknown. Where candidates disagree (two declarations, two overloads'
// results, a spread we cannot list) the answer is ambiguous or unknown,
// never a guess: an edge is made only where the type is proven.
package typescript

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

// vkind is what an expression evaluates to.
type vkind uint8

const (
	vUnknown   vkind = iota
	vBuiltin         // a builtin, a global, or a value of a builtin type: no edge
	vModule          // a module's namespace
	vNamespace       // a TypeScript namespace or an enum
	vClass           // a class (or, as a type, an interface)
	vInstance        // an instance of the class or interface
	vFunc            // a function or method
	vVar             // a variable, constant, field or type alias, not yet read
	vObject          // an object literal, or a variable holding one with functions
	vSuper           // super: members of the bases of class node
	vArray           // an array of the instances object (an Expr head) evaluates to
	vElement         // a method of an array returning one of its elements
	vEach            // a method of an array calling a function on its elements
)

// value is the result of evaluating (part of) an Expr.
type value struct {
	kind   vkind
	node   int32   // index in resolver.nodes, or -1
	res    string  // how the last step was found
	conf   float32 // 1, or less when a base outside the snapshot could interfere
	reason string  // vUnknown: why; "" until the use decides
	recv   int32   // vFunc: the class or interface of the instance a method was read from, or -1
	object string  // vObject: the members of its literal (see objectExpr), "" when unknown; vArray, vElement, vEach: the element's Expr
	in     ctx     // vObject, vArray, vElement, vEach: where object is evaluated
}

func unknown(reason string) value { return value{kind: vUnknown, node: -1, reason: reason, recv: -1} }

func ambiguous(n int) value {
	v := unknown(strconv.Itoa(n) + " candidates")
	v.res = schemas.Ambiguous
	return v
}

// chainEntry is one class or interface of a heritage chain, or a base
// outside the snapshot.
type chainEntry struct {
	node     int32
	external bool
	builtin  bool
}

// ctx is where an Expr is evaluated: the node name lookup starts at, and
// the class this stands for (-1 for none).
type ctx struct {
	scope, class int32
}

// at is the context of code whose symbol is src: this is the class of the
// nearest method above (extraction wrote ?this where it is not).
func (r *resolver) at(src int32) ctx {
	c := ctx{scope: src, class: indexer.MethodClass(r.nodes, r.byID, src)}
	if r.isKind(src, schemas.KindClass) {
		c.class = src
	}
	return c
}

// eval evaluates an Expr.
func (r *resolver) eval(expr string, c ctx) value {
	if expr == "" || expr[0] == '?' {
		switch expr {
		case indexer.ExprLiteral:
			return value{kind: vBuiltin, node: -1}
		case exprReceiver:
			return unknown(indexer.ReasonUnknownType)
		case exprThis:
			return unknown(reasonThis)
		}
		return unknown("")
	}
	if r.depth > maxHops*4 {
		return unknown(indexer.ReasonChainTooLong)
	}
	r.depth++
	defer func() { r.depth-- }()

	var v value
	rest := expr
	switch {
	case expr[0] == '{':
		end := indexer.Closing(expr, '{', '}')
		if end < 0 {
			return unknown(indexer.ReasonDynamic)
		}
		if inner := expr[1:end]; isDotted(inner) {
			v = r.instanceOf(r.evalType(inner, c))
		} else {
			v = value{kind: vObject, node: -1, res: schemas.ResolvedLocal, conf: 1, recv: -1, object: inner, in: c}
		}
		rest = expr[end+1:]
	case expr[0] == '[':
		end := strings.IndexByte(expr, ']')
		if end < 0 {
			return unknown(indexer.ReasonDynamic)
		}
		v, rest = value{kind: vArray, node: -1, recv: -1, object: expr[1:end], in: c}, expr[end+1:]
	case expr[0] == '#':
		end := strings.IndexAny(expr, ".(<@")
		if end < 0 {
			end = len(expr)
		}
		id, err := strconv.ParseUint(expr[1:end], 16, 64)
		i, ok := r.byID[id]
		if err != nil || !ok {
			return unknown(indexer.ReasonUnknownName)
		}
		v, rest = r.nodeValue(i, schemas.ResolvedLocal), expr[end:]
	case expr[0] == '(':
		end := matchingClose([]byte(expr), 0, len(expr))
		inner := expr[1:max(end-1, 1)]
		i := strings.LastIndex(inner, " instanceof ")
		switch branches := splitTop(inner, '|'); {
		case end < 0:
			return unknown(indexer.ReasonDynamic)
		case len(branches) == 2:
			v = r.either(branches[0], branches[1], c)
		case i >= 0:
			v = r.narrow(inner[:i], inner[i+len(" instanceof "):], c)
		default:
			return unknown(indexer.ReasonDynamic)
		}
		rest = expr[end:]
	case strings.HasPrefix(expr, "this["):
		end := strings.IndexByte(expr, ']')
		if end < 0 {
			return unknown(indexer.ReasonDynamic)
		}
		v, rest = r.methodThis(expr[len("this["):end], c), expr[end+1:]
	case strings.HasPrefix(expr, "require("):
		end := strings.IndexByte(expr, ')')
		if end < 0 {
			return unknown(indexer.ReasonDynamic)
		}
		v, rest = r.moduleValue(r.module(expr[len("require("):end], r.nodes[c.scope].File), 0), expr[end+1:]
	default:
		end := strings.IndexAny(expr, ".(<@")
		if end < 0 {
			end = len(expr)
		}
		name := expr[:end]
		rest = expr[end:]
		switch name {
		case "this", "class":
			if c.class < 0 {
				return unknown(reasonThis)
			}
			v = value{kind: vInstance, node: c.class, res: schemas.ResolvedReceiver, conf: 1}
			if name == "class" {
				v.kind = vClass
			}
		case "super":
			if c.class < 0 {
				return unknown(reasonThis)
			}
			v = value{kind: vSuper, node: c.class, res: schemas.ResolvedReceiver, conf: 1}
		default:
			v = r.lookup(name, c, false)
		}
	}
	for rest != "" {
		if strings.HasPrefix(rest, "()") {
			v, rest = r.call(v, false), rest[2:]
			continue
		}
		if strings.HasPrefix(rest, "<>()") {
			v, rest = r.call(v, true), rest[4:]
			continue
		}
		if rest[0] == '@' {
			step, after := splitParamStep(rest[1:])
			v, rest = r.callbackParam(v, step, c), after
			continue
		}
		end := strings.IndexAny(rest[1:], ".(<@")
		if end < 0 {
			end = len(rest) - 1
		}
		if end < 0 {
			end = len(rest) - 1
		}
		v, rest = r.attr(v, rest[1:end+1]), rest[end+1:]
	}
	return v
}

// either evaluates the head (a|b), a conditional whose branches differ:
// the class, instance or function both are, which members are then read
// from; else unknown.
func (r *resolver) either(a, b string, c ctx) value {
	x, y := r.deref(r.eval(a, c)), r.deref(r.eval(b, c))
	switch {
	case x.kind != y.kind || x.node != y.node || x.node < 0:
	case x.kind == vInstance || x.kind == vClass || x.kind == vFunc:
		x.conf = min(x.conf, y.conf)
		return x
	}
	return unknown(indexer.ReasonUnknownType)
}

// narrow evaluates the head (x instanceof C): x, of declared type the
// Expr x ("?any" for any or unknown), where the check holds. As the
// checker narrows by instanceof, it is an instance of C when x is any,
// or when C derives from x's class or interface; x itself when x's class
// or interface derives from C. Otherwise the checker compares structures,
// which we do not: unknown.
func (r *resolver) narrow(x, class string, c ctx) value {
	k := r.deref(r.eval(class, c))
	if k.kind != vClass || !r.isKind(k.node, schemas.KindClass) {
		return unknown(indexer.ReasonUnknownType)
	}
	inst := value{kind: vInstance, node: k.node, res: schemas.ResolvedReceiver, conf: k.conf, recv: -1}
	if x == "?any" {
		return inst
	}
	v := r.deref(r.eval(x, c))
	switch {
	case v.kind != vInstance:
		return unknown(indexer.ReasonUnknownType)
	case r.derives(v.node, k.node):
		return v
	case r.derives(k.node, v.node):
		return inst
	}
	return unknown(indexer.ReasonUnknownType)
}

// derives reports whether class or interface a is b or has b among its
// bases, as far as the snapshot shows.
func (r *resolver) derives(a, b int32) bool {
	return slices.ContainsFunc(r.chain(a), func(e chainEntry) bool { return e.node == b })
}

// methodThis evaluates the head this[A,X,m]: this in method m of an
// object literal of type A<X>. When A maps each method of its type
// argument to a function whose this is that argument (thisMapping), and X
// has a method m that is neither optional nor an accessor, the literal's
// method m is contextually typed by it: this is an instance of X. Else
// this is unknown.
func (r *resolver) methodThis(head string, c ctx) value {
	parts := strings.Split(head, ",")
	if len(parts) != 3 || !r.thisMapping(r.evalType(parts[0], c), 0) {
		return unknown(reasonThis)
	}
	x := r.deref(r.instanceOf(r.evalType(parts[1], c)))
	if x.kind != vInstance {
		return unknown(reasonThis)
	}
	m := r.classMember(x, parts[2], false, false)
	if m.kind != vFunc || !r.isKind(m.node, schemas.KindMethod) || isAccessor(&r.nodes[m.node]) || isOptional(&r.nodes[m.node]) {
		return unknown(reasonThis)
	}
	return value{kind: vInstance, node: x.node, res: schemas.ResolvedReceiver, conf: x.conf, recv: -1}
}

// thisMapped matches, with the blanks removed, a mapped type giving each
// method of type T a this of type T:
//
//	{ [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (this: T, ...args: A) => R : never }
var thisMapped = regexp.MustCompile(`^\{\[([\w$]+)inkeyof([\w$]+)\]:([\w$]+)\[([\w$]+)\]extends\(\.\.\.([\w$]+):infer([\w$]+)\)=>infer([\w$]+)\?\(this:([\w$]+),\.\.\.([\w$]+):([\w$]+)\)=>([\w$]+):never;?\}$`)

// thisMapping reports whether type v is a type alias A<T> whose value is
// thisMapped over T, perhaps in Partial<>, or another alias B<T> that is.
func (r *resolver) thisMapping(v value, hops int) bool {
	if v.kind != vVar || !r.isKind(v.node, schemas.KindTypeAlias) || hops > maxHops {
		return false
	}
	n := &r.nodes[v.node]
	params := typeParamNames(n.Signature)
	_, val, ok := strings.Cut(n.Signature, "=")
	if len(params) != 1 || !ok {
		return false
	}
	t := params[0]
	val = strings.Join(strings.Fields(val), "")
	outside := ctx{scope: r.parent(v.node), class: -1}
	if open := strings.IndexByte(val, '<'); open > 0 && val[len(val)-1] == '>' && val[open+1:len(val)-1] == t {
		base := val[:open]
		return isDotted(base) && base != "Partial" && r.thisMapping(r.evalType(base, outside), hops+1)
	}
	if inner, ok := strings.CutPrefix(val, "Partial<"); ok && strings.HasSuffix(inner, ">") {
		if r.lookup("Partial", outside, true).kind != vBuiltin {
			return false
		}
		val = inner[:len(inner)-1]
	}
	g := thisMapped.FindStringSubmatch(val)
	return g != nil && g[1] == g[4] && g[2] == t && g[3] == t && g[8] == t && g[5] == g[9] && g[6] == g[10] && g[7] == g[11]
}

// isOptional reports whether member node n is declared optional (m?()).
func isOptional(n *schemas.Node) bool {
	sig := n.Signature
	for i := strings.Index(sig, n.Name); i >= 0; {
		end := i + len(n.Name)
		if (i == 0 || !isIdentByte(sig[i-1])) && (end == len(sig) || !isIdentByte(sig[end])) {
			return strings.HasPrefix(strings.TrimSpace(sig[end:]), "?")
		}
		next := strings.Index(sig[end:], n.Name)
		if next < 0 {
			break
		}
		i = end + next
	}
	return true // not found: not provably required
}

// evalType evaluates a dotted type name.
func (r *resolver) evalType(name string, c ctx) value {
	first, rest, _ := strings.Cut(name, ".")
	v := r.lookup(first, c, true)
	for rest != "" {
		var part string
		part, rest, _ = strings.Cut(rest, ".")
		v = r.typeAttr(v, part)
	}
	return v
}

// typeAttr evaluates the type v.name: a member of a module or namespace
// that is a type (a class, interface, type alias, enum or namespace).
func (r *resolver) typeAttr(v value, name string) value {
	if v = r.deref(v); v.kind == vModule {
		return r.member(v, name, 0, true)
	}
	return r.attr(v, name)
}

// instanceOf turns the value of a type into an instance of it.
func (r *resolver) instanceOf(v value) value {
	if v.kind == vVar && r.isKind(v.node, schemas.KindTypeAlias) {
		facts := r.types[r.nodes[v.node].ID]
		if len(facts) != 1 {
			return unknown(indexer.ReasonUnknownType)
		}
		return r.eval(facts[0].Expr, ctx{scope: v.node, class: -1})
	}
	switch v.kind {
	case vClass:
		v.kind = vInstance
	case vBuiltin, vUnknown:
	default:
		return unknown(indexer.ReasonUnknownType)
	}
	return v
}

// deref reads a variable: the one value its type facts agree on. A
// variable holding an object literal with functions is that object.
func (r *resolver) deref(v value) value {
	if v.kind != vVar {
		return v
	}
	if r.hasKids[r.nodes[v.node].ID] && !r.isKind(v.node, schemas.KindTypeAlias) && !r.declaresType(v.node) {
		v.kind = vObject
		for _, f := range r.types[r.nodes[v.node].ID] {
			if f.Expr[0] == '{' && !isDotted(f.Expr[1:len(f.Expr)-1]) {
				v.object, v.in = f.Expr[1:len(f.Expr)-1], r.within(r.parent(v.node), f.Line, f.Col)
			}
		}
		return v
	}
	out, ok := r.vars[v.node]
	if !ok {
		if r.busy[v.node] {
			return unknown("")
		}
		r.busy[v.node] = true
		out = r.varValue(v.node)
		delete(r.busy, v.node)
		r.vars[v.node] = out
	}
	if out.kind != vUnknown && out.kind != vBuiltin {
		out.res = v.res
	}
	out.conf = min(out.conf, v.conf)
	return out
}

func (r *resolver) varValue(i int32) value {
	if r.isKind(i, schemas.KindTypeAlias) {
		return unknown(indexer.ReasonUnknownType)
	}
	facts := r.types[r.nodes[i].ID]
	if len(facts) == 0 {
		return unknown("")
	}
	var cands []value
	for _, f := range facts {
		v := r.deref(r.eval(f.Expr, r.within(r.parent(i), f.Line, f.Col)))
		if v.kind == vUnknown {
			return v
		}
		cands = append(cands, v)
	}
	return r.pick(cands)
}

// within returns the context of the code at line:col inside scope s: the
// innermost function or class there, s itself when there is none.
func (r *resolver) within(s int32, line, col uint32) ctx {
	s = indexer.InnermostAt(r.nodes, r.kids, s, line, col)
	if s < 0 {
		return ctx{scope: -1, class: -1}
	}
	return r.at(s)
}

// attr evaluates v.name.
func (r *resolver) attr(v value, name string) value {
	switch v = r.deref(v); v.kind {
	case vModule:
		return r.member(v, name, 0, false)
	case vNamespace:
		var nodes []int32
		n := &r.nodes[v.node]
		for _, ns := range r.sameNS[n.File+"\x00"+n.QualifiedName] {
			for _, i := range r.children[childKey{r.nodes[ns].ID, name}] {
				if r.nodes[i].Visibility == schemas.Public {
					nodes = append(nodes, i)
				}
			}
		}
		if n.Kind == schemas.KindEnum {
			nodes = r.children[childKey{n.ID, name}]
		}
		return r.pickNodes(nodes, v.res)
	case vObject:
		if v.object != "" {
			return r.objectMember(v, name)
		}
		nodes := r.children[childKey{r.nodes[v.node].ID, name}]
		if len(nodes) == 0 && objectMembers[name] {
			return value{kind: vBuiltin, node: -1}
		}
		return r.pickNodes(nodes, v.res)
	case vClass:
		return r.classMember(v, name, true, false)
	case vInstance:
		return r.classMember(v, name, false, false)
	case vSuper:
		return r.classMember(v, name, false, true)
	case vArray:
		switch name {
		case "[]": // an element (for-of)
			return r.eval(v.object, v.in)
		case "shift", "pop", "at", "find", "findLast":
			v.kind = vElement
			return v
		case "forEach", "map", "flatMap", "filter", "some", "every", "findIndex", "findLastIndex":
			v.kind = vEach
			return v
		}
		return value{kind: vBuiltin, node: -1}
	case vFunc:
		return r.funcMember(v, name)
	case vBuiltin, vElement, vEach:
		if name == "[]" { // an element of a string, a Map, an array of no class: not followed
			return unknown(indexer.ReasonUnknownType)
		}
		return value{kind: vBuiltin, node: -1}
	case vUnknown:
		if v.reason == "" {
			v.reason = indexer.ReasonUnknownType
		}
		return v
	}
	return unknown(indexer.ReasonUnknownType)
}

// pickNodes returns the one value the declarations nodes of a member
// agree on (see overloads), found as res.
func (r *resolver) pickNodes(nodes []int32, res string) value {
	if len(nodes) == 0 {
		return unknown(indexer.ReasonNoMember)
	}
	var cands []value
	for _, i := range r.overloads(nodes) {
		cands = append(cands, r.nodeValue(i, res))
	}
	return r.pick(cands)
}

// objectMember evaluates o.name for an object literal o: the last of its
// members that defines name, a spread defining it when its value is known
// to; unknown when a spread of a value we cannot list comes after the
// last definition.
func (r *resolver) objectMember(o value, name string) value {
	members := splitTop(o.object, ',')
	for k := len(members) - 1; k >= 0; k-- {
		m := members[k]
		if spread, ok := strings.CutPrefix(m, "..."); ok {
			v := r.attr(r.eval(spread, o.in), name)
			if v.kind == vUnknown && v.reason == indexer.ReasonNoMember && v.res != schemas.Ambiguous {
				continue
			}
			return v
		}
		key, e, _ := strings.Cut(m, "=")
		switch {
		case key != name:
			continue
		case e != "":
			return r.eval(e, o.in)
		case o.node < 0:
			return unknown(indexer.ReasonNoMember)
		}
		return r.pickNodes(r.children[childKey{r.nodes[o.node].ID, name}], o.res)
	}
	if objectMembers[name] {
		return value{kind: vBuiltin, node: -1}
	}
	return unknown(indexer.ReasonNoMember)
}

// declaresType reports whether variable node i has a type annotation
// (const p: Provider = {...}): its members are then those of the type.
func (r *resolver) declaresType(i int32) bool {
	n := &r.nodes[i]
	for w := range strings.FieldsSeq(n.Signature) {
		if rest, ok := strings.CutPrefix(w, n.Name); ok && rest != "" && !isIdentByte(rest[0]) {
			return strings.HasPrefix(strings.TrimPrefix(rest, "!"), ":")
		} else if ok {
			return false
		}
	}
	return false
}

// call evaluates v(), v<T>() when typeArgs is set.
func (r *resolver) call(v value, typeArgs bool) value {
	switch v = r.deref(v); v.kind {
	case vClass:
		if r.isKind(v.node, schemas.KindClass) {
			v.kind = vInstance
			return v
		}
	case vFunc:
		if r.constructs(v.node) {
			v.kind = vInstance
			return v
		}
		return r.result(v, typeArgs)
	case vElement:
		return r.eval(v.object, v.in)
	case vBuiltin, vArray, vEach:
		return value{kind: vBuiltin, node: -1}
	case vUnknown:
		return v
	}
	return unknown("")
}

// result is the value a call of function f returns, from the result
// annotations of the signatures a caller can choose: those of its
// overloads (the implementation's is not visible beside them), which must
// agree. An overload with the parameters of an earlier one without type
// parameters is chosen only by explicit type arguments, so it counts only
// for a call with them. A
// result of type this is the receiver the method was read from.
func (r *resolver) result(f value, typeArgs bool) value {
	var out []value
	var plain []string // the parameters of the overloads without type parameters
	for _, s := range r.signatures(f.node) {
		p, generic := paramList(r.nodes[s].Signature)
		if !typeArgs && slices.Contains(plain, p) {
			continue
		}
		if !generic {
			plain = append(plain, p)
		}
		facts := r.results[r.nodes[s].ID]
		if len(facts) != 1 {
			return unknown("")
		}
		var v value
		if facts[0].Expr == "this" && f.recv >= 0 {
			v = value{kind: vInstance, node: f.recv, res: schemas.ResolvedReceiver, conf: 1}
		} else {
			v = r.deref(r.eval(facts[0].Expr, ctx{scope: s, class: r.at(s).class}))
		}
		v.conf = min(v.conf, f.conf)
		out = append(out, v)
	}
	if len(out) == 0 {
		return unknown("")
	}
	v := r.pick(out)
	if v.kind == vUnknown && v.res == schemas.Ambiguous {
		return unknown(reasonOverloads)
	}
	return v
}

// callbackParam evaluates the step "@" arg ":" param: the type callee f
// declares for parameter param (or this, for "this") of the function
// passed as its argument arg, when its signatures (its overloads, or the
// constructors of a class) agree on one. The first parameter of the
// function an array's map, forEach, find and the like call is an element.
//
// A parameter whose type is a type parameter T of the callee has the type
// the step's expected type arguments give T, when the callee's result is
// that type with T among its arguments (see expr.go); they are evaluated
// in c.
func (r *resolver) callbackParam(f value, step string, c ctx) value {
	step, expected, _ := strings.Cut(step, ";")
	a, p, _ := strings.Cut(step, ":")
	arg, err1 := strconv.Atoi(a)
	param, err2 := -1, error(nil)
	if p != "this" {
		param, err2 = strconv.Atoi(p)
	}
	if err1 != nil || err2 != nil {
		return unknown(indexer.ReasonDynamic)
	}
	var sigs []int32
	switch f = r.deref(f); {
	case f.kind == vEach || f.kind == vElement:
		// arr.map((x) => …), arr.find((x) => …): x is an element
		if step == "0:0" {
			return r.eval(f.object, f.in)
		}
		return unknown(indexer.ReasonUnknownType)
	case f.kind == vFunc:
		sigs = r.signatures(f.node)
	case f.kind == vClass && r.isKind(f.node, schemas.KindClass):
		init, ok := r.constructorOf(f.node, false)
		if !ok {
			return unknown(indexer.ReasonUnknownType)
		}
		sigs = r.signatures(init.node)
	default:
		return unknown(indexer.ReasonUnknownType)
	}
	var out []value
	for _, s := range sigs {
		t := callbackParamType(r.nodes[s].Signature, arg, param)
		if h := r.inferred(s, strings.TrimSpace(t), expected); h != "" {
			out = append(out, r.eval(h, c))
			continue
		}
		head := typeHead(t, r.typeParams(s), func(string) bool { return false })
		if head == "" || head[0] != '{' {
			return unknown(indexer.ReasonUnknownType)
		}
		out = append(out, r.eval(head, ctx{scope: s, class: r.at(s).class}))
	}
	if len(out) == 0 {
		return unknown(indexer.ReasonUnknownType)
	}
	return r.pick(out)
}

// inferred returns the type head expected gives type parameter t of
// signature s: expected is C "=" heads, the type arguments of the type C
// the call's value is declared as; s must declare t and return C with t
// among its type arguments. It is "" otherwise.
func (r *resolver) inferred(s int32, t, expected string) string {
	base, heads, ok := strings.Cut(expected, "=")
	facts := r.results[r.nodes[s].ID]
	if !ok || len(facts) != 1 || !slices.Contains(typeParamNames(r.nodes[s].Signature), t) {
		return ""
	}
	name, args := typeArgs(facts[0].Target)
	if name != base {
		return ""
	}
	hs := splitTop(heads, ',')
	for i, a := range args {
		if strings.TrimSpace(a) == t && i < len(hs) && strings.HasPrefix(hs[i], "{") {
			return hs[i]
		}
	}
	return ""
}

// splitParamStep splits the text after an "@" into the step (arg ":"
// param, perhaps ";" and expected type arguments) and the rest of the
// Expr.
func splitParamStep(s string) (step, rest string) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == ':') {
		i++
	}
	if strings.HasPrefix(s[i:], "this") {
		i += len("this")
	}
	if i < len(s) && s[i] == ';' {
		i++
		for i < len(s) && s[i] != '.' && s[i] != '(' && s[i] != '@' && s[i] != '<' {
			if s[i] == '{' {
				if end := indexer.Closing(s[i:], '{', '}'); end > 0 {
					i += end
				}
			}
			i++
		}
	}
	return s[:i], s[i:]
}

// typeParams returns a test for the names of the type parameters function
// s and its class or interface declare.
func (r *resolver) typeParams(s int32) func(string) bool {
	names := typeParamNames(r.nodes[s].Signature)
	if p := r.parent(s); r.isKind(p, schemas.KindClass, schemas.KindInterface) {
		names = append(names, typeParamNames(r.nodes[p].Signature)...)
	}
	return func(name string) bool { return slices.Contains(names, name) }
}

// signatures returns the signatures callers of function or method f
// see, in source order: its overloads, or f alone.
func (r *resolver) signatures(f int32) []int32 {
	n := &r.nodes[f]
	if isGetter(n) {
		return []int32{f}
	}
	var sigs []int32
	for _, i := range r.children[childKey{n.ParentID, n.Name}] {
		if m := &r.nodes[i]; m.Kind == n.Kind && m.IsStatic == n.IsStatic && !isAccessor(m) {
			sigs = append(sigs, i)
		}
	}
	if len(sigs) < 2 {
		return []int32{f}
	}
	slices.SortFunc(sigs, r.bySource)
	if last := sigs[len(sigs)-1]; r.nodes[last].BodyHash != noBody {
		sigs = sigs[:len(sigs)-1] // the implementation
	}
	return sigs
}

// noBody is the body hash of a declaration without a body.
var noBody = xxhash.Sum64String("")

func (r *resolver) bySource(a, b int32) int {
	x, y := &r.nodes[a], &r.nodes[b]
	return cmp.Or(cmp.Compare(x.StartLine, y.StartLine), cmp.Compare(x.StartCol, y.StartCol))
}

// paramList returns the parameter list of a function signature (the text
// from the first parenthesis after its name and type parameters to the
// one matching it) and whether it has type parameters.
func paramList(sig string) (params string, generic bool) {
	depth := 0
	for i := 0; i < len(sig); i++ {
		switch sig[i] {
		case '<':
			depth++
			generic = true
		case '>':
			depth--
		case '(':
			if depth == 0 {
				if end := matchingClose([]byte(sig), i, len(sig)); end > i {
					return sig[i:end], generic
				}
				return sig[i:], generic
			}
		}
	}
	return "", generic
}

// isGetter reports whether method node n is a get accessor.
func isGetter(n *schemas.Node) bool { return accessor(n) == "get" }

// isAccessor reports whether method node n is a get or set accessor.
func isAccessor(n *schemas.Node) bool { return accessor(n) != "" }

// accessor returns "get" or "set" for an accessor, "" for others.
func accessor(n *schemas.Node) string {
	for w := range strings.FieldsSeq(n.Signature) {
		switch w {
		case "public", "private", "protected", "static", "override", "abstract", "declare", "readonly":
			continue
		case "get", "set":
			return w
		}
		return ""
	}
	return ""
}

// classMember looks name up along the heritage chain of v's class (after
// the class itself for super): static members for the class itself,
// instance members for an instance.
func (r *resolver) classMember(v value, name string, static, after bool) value {
	conf := v.conf
	external, builtin := false, false
	for i, e := range r.chain(v.node) {
		switch {
		case after && i == 0:
		case e.builtin:
			builtin = true
		case e.external:
			external = true
			conf = min(conf, indexer.InheritedConfidence)
		default:
			var nodes []int32
			for _, n := range r.children[childKey{r.nodes[e.node].ID, name}] {
				if node := &r.nodes[n]; node.IsStatic == static && node.Kind != schemas.KindConstructor && r.isMember(e.node, n) {
					nodes = append(nodes, n)
				}
			}
			if len(nodes) == 0 {
				continue
			}
			var getters []int32
			for _, n := range nodes {
				if isGetter(&r.nodes[n]) {
					getters = append(getters, n)
				}
			}
			if len(getters) > 0 {
				m := r.nodeValue(getters[len(getters)-1], schemas.ResolvedReceiver)
				m.conf = conf
				if !static {
					m.recv = v.node
				}
				return r.result(m, false)
			}
			var cands []value
			for _, n := range r.overloads(nodes) {
				m := r.nodeValue(n, schemas.ResolvedReceiver)
				m.conf = conf
				if !static {
					m.recv = v.node
				}
				cands = append(cands, m)
			}
			return r.pick(cands)
		}
	}
	switch {
	case external:
		return unknown(reasonBase)
	case builtin || objectMembers[name] || static && (name == "name" || name == "length" || name == "prototype" || name == "call" || name == "apply" || name == "bind"):
		return value{kind: vBuiltin, node: -1}
	}
	return unknown(indexer.ReasonNoMember)
}

// constructorOf finds the constructor an instantiation of class c runs,
// along its chain (from its first base for super()).
func (r *resolver) constructorOf(c int32, after bool) (value, bool) {
	for i, e := range r.chain(c) {
		switch {
		case after && i == 0:
		case e.external:
			return unknown(reasonBase), false
		case e.builtin:
			return value{}, false
		default:
			var nodes []int32
			for _, n := range r.children[childKey{r.nodes[e.node].ID, "constructor"}] {
				if r.nodes[n].Kind == schemas.KindConstructor {
					nodes = append(nodes, n)
				}
			}
			if len(nodes) > 0 {
				return r.nodeValue(r.overloads(nodes)[0], schemas.ResolvedReceiver), true
			}
		}
	}
	return value{}, false
}

// chain returns the class or interface c followed by its bases: the
// class's extends chain, an interface's extended interfaces breadth first.
func (r *resolver) chain(c int32) []chainEntry {
	if ch, ok := r.chains[c]; ok {
		return ch
	}
	self := []chainEntry{{node: c}}
	r.chains[c] = self // a cycle of bases ends here
	out := self
	seen := map[int32]bool{c: true}
	queue := []int32{c}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		outside := ctx{scope: r.parent(cur), class: -1}
		for _, b := range r.bases[r.nodes[cur].ID] {
			var v value
			if r.isKind(cur, schemas.KindInterface) {
				v = r.evalType(b.Expr, outside)
			} else {
				v = r.eval(b.Expr, outside)
			}
			v = r.deref(v)
			switch {
			case v.kind == vClass && !seen[v.node]:
				seen[v.node] = true
				out = append(out, chainEntry{node: v.node})
				queue = append(queue, v.node)
			case v.kind == vClass:
			case v.kind == vBuiltin:
				out = append(out, chainEntry{node: -1, builtin: true})
			default:
				out = append(out, chainEntry{node: -1, external: true})
			}
		}
	}
	r.chains[c] = out
	return out
}
