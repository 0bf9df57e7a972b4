package rust

// What the resolver knows of the standard library: the names of the
// prelude, the primitive types, the standard macros, and enough of the
// containers and smart pointers (their element types) to see through them
// to the types of the snapshot. Calls into the standard library itself
// stay unresolved ("external crate std").

var preludeTypes = set(
	"Option", "Result", "Vec", "String", "Box", "ToString", "ToOwned", "Clone", "Copy",
	"Default", "Drop", "Eq", "PartialEq", "Ord", "PartialOrd", "Fn", "FnMut", "FnOnce",
	"Iterator", "IntoIterator", "DoubleEndedIterator", "ExactSizeIterator", "Extend",
	"From", "Into", "TryFrom", "TryInto", "AsRef", "AsMut", "Send", "Sync", "Sized", "Unpin",
	"FromIterator", "Debug", "Hash",
	"bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32",
	"i64", "i128", "isize", "f32", "f64",
)

var primitives = set(
	"bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32",
	"i64", "i128", "isize", "f32", "f64",
)

var preludeValues = set("Some", "None", "Ok", "Err", "drop", "Box", "Vec", "String")

// stdVariants are the prelude's enum variants: calling one builds a value,
// it is no call.
var stdVariants = set("Some", "Ok", "Err")

var stdMacros = set(
	"assert", "assert_eq", "assert_ne", "cfg", "column", "compile_error", "concat", "dbg",
	"debug_assert", "debug_assert_eq", "debug_assert_ne", "env", "eprint", "eprintln", "file",
	"format", "format_args", "include", "include_bytes", "include_str", "line", "matches",
	"module_path", "option_env", "panic", "print", "println", "stringify", "thread_local",
	"todo", "unimplemented", "unreachable", "vec", "write", "writeln", "addr_of", "addr_of_mut",
	"const_format_args", "concat_idents", "is_x86_feature_detected", "try", "ready", "pin",
	"join", "select", "offset_of", "debug_assert_matches", "assert_matches",
)

// prelude returns what a name of the standard prelude is.
func prelude(name string, want ns) (value, bool) {
	switch want {
	case nsMacro:
		if stdMacros[name] {
			return ext("std", name+"!"), true
		}
		return value{}, false
	case nsValue:
		if preludeValues[name] || preludeTypes[name] {
			return ext("std", name), true
		}
	default:
		if preludeTypes[name] || preludeValues[name] {
			return ext("std", name), true
		}
	}
	return value{}, false
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// stdKinds are the standard types the resolver follows, by name.
var stdKinds = map[string]string{
	"Option": "option", "Result": "result",
	"Vec": "seq", "VecDeque": "seq", "LinkedList": "seq", "HashSet": "seq", "BTreeSet": "seq",
	"BinaryHeap": "seq", "slice": "seq",
	"HashMap": "map", "BTreeMap": "map", "IndexMap": "map",
	"Box": "ptr", "Rc": "ptr", "Arc": "ptr", "Cow": "ptr",
	"RefCell": "cell", "Mutex": "lock", "RwLock": "lock", "Cell": "cell",
	"Iter": "iter",
}

// pointerMethods are the methods a Box, Rc or Arc has itself (or through a
// trait every one of them implements): any other method call goes through
// to the value pointed to.
var pointerMethods = set(
	"clone", "clone_from", "as_ref", "as_mut", "borrow", "borrow_mut", "into_raw", "leak",
	"downcast", "fmt", "eq", "ne", "cmp", "partial_cmp", "lt", "le", "gt", "ge", "hash",
	"to_string", "into", "try_into", "type_id", "deref", "deref_mut", "drop", "default",
	"pin", "into_pin", "get_mut", "make_mut", "try_unwrap", "strong_count", "weak_count",
	"downgrade", "ptr_eq", "into_inner", "unwrap_or_clone", "as_ptr", "into_owned", "to_owned",
	"is_borrowed", "is_owned",
)

// stdTraitMethods are the methods of the standard traits a type often
// implements by derive or by a blanket impl: not finding one on a type of
// the snapshot is no surprise.
var stdTraitMethods = set(
	"clone", "clone_from", "fmt", "eq", "ne", "cmp", "partial_cmp", "lt", "le", "gt", "ge",
	"max", "min", "clamp", "hash", "to_string", "to_owned", "into", "try_into", "from",
	"try_from", "as_ref", "as_mut", "borrow", "borrow_mut", "default", "deref", "deref_mut",
	"drop", "next", "into_iter", "type_id", "serialize", "deserialize", "source", "description",
	"poll", "call", "index", "index_mut", "add", "sub", "mul", "div", "neg", "not",
)

// stdType makes the type of a standard name with its arguments.
func stdType(name string, args []*typeVal) *typeVal {
	if _, ok := stdKinds[name]; !ok {
		return &typeVal{node: -1, crate: "std", std: name}
	}
	return &typeVal{node: -1, crate: "std", std: name, args: args}
}

func (t *typeVal) arg(i int) *typeVal {
	if i < len(t.args) {
		return t.args[i]
	}
	return unknownType
}

// stdResult is the value a method of a standard type returns, when it is
// one we follow: an element, an option or an iterator of elements.
func stdResult(t *typeVal, method string) (*typeVal, bool) {
	if method == "clone" || method == "to_owned" {
		return t, true
	}
	switch stdKinds[t.std] {
	case "option", "result":
		switch method {
		case "unwrap", "expect", "unwrap_or", "unwrap_or_default", "unwrap_or_else", "unwrap_unchecked":
			return t.arg(0), true
		case "as_ref", "as_mut", "as_deref", "as_deref_mut", "take", "cloned", "copied", "or", "or_else":
			return t, true
		case "ok":
			return stdType("Option", []*typeVal{t.arg(0)}), true
		case "iter", "iter_mut", "into_iter":
			return stdType("Iter", []*typeVal{t.arg(0)}), true
		}
	case "seq":
		switch method {
		case "iter", "iter_mut", "into_iter", "drain":
			return stdType("Iter", []*typeVal{t.arg(0)}), true
		case "first", "last", "get", "get_mut", "pop", "first_mut", "last_mut", "pop_front",
			"pop_back", "front", "back", "front_mut", "back_mut", "peek":
			return stdType("Option", []*typeVal{t.arg(0)}), true
		}
	case "map":
		switch method {
		case "get", "get_mut", "remove":
			return stdType("Option", []*typeVal{t.arg(1)}), true
		case "values", "values_mut", "into_values":
			return stdType("Iter", []*typeVal{t.arg(1)}), true
		case "keys", "into_keys":
			return stdType("Iter", []*typeVal{t.arg(0)}), true
		}
	case "iter":
		switch method {
		case "next", "last", "nth", "min", "max", "find", "next_back", "min_by_key", "max_by_key",
			"min_by", "max_by", "find_map":
			return stdType("Option", []*typeVal{t.arg(0)}), true
		case "filter", "rev", "skip", "take", "peekable", "cloned", "copied", "chain", "step_by",
			"into_iter", "by_ref", "skip_while", "take_while", "fuse", "inspect", "iter":
			return t, true
		}
	case "ptr":
		switch method {
		case "as_ref", "as_mut", "into_inner", "into_owned":
			return t.arg(0), true
		}
	case "cell":
		switch method {
		case "borrow", "borrow_mut", "get", "get_mut", "into_inner", "take":
			return t.arg(0), true
		}
	case "lock":
		switch method {
		case "lock", "try_lock", "read", "write", "try_read", "try_write", "into_inner", "get_mut":
			return stdType("Result", []*typeVal{t.arg(0)}), true
		}
	}
	return nil, false
}

// stdElement is the type of x[i] and of the items a for loop takes ("[]"
// stands for both, so a map, whose items are pairs, has none).
func stdElement(t *typeVal) (*typeVal, bool) {
	switch stdKinds[t.std] {
	case "seq", "iter", "option", "result":
		return t.arg(0), true
	case "ptr":
		return stdElement(t.arg(0))
	}
	return nil, false
}
