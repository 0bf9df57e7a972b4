package overload_test

import (
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer/overload"
)

// A toy type system: int widens to long, Integer boxes int, String and
// Integer are Objects; "?" is an argument of unknown type; "T[]" is an
// array of T.
var supers = map[string][]string{
	"String": {"Object"}, "Integer": {"Number"}, "Number": {"Object"}, "Object": nil,
}

func subtype(s, t string) overload.Answer {
	switch {
	case s == "?" || t == "?":
		return overload.Maybe
	case s == t:
		return overload.Yes
	case s == "int" && t == "long":
		return overload.Yes
	case strings.HasSuffix(t, "[]") || strings.HasSuffix(s, "[]"):
		if t == "Object" {
			return overload.Yes
		}
		return overload.No
	}
	for _, u := range supers[s] {
		if subtype(u, t) == overload.Yes {
			return overload.Yes
		}
	}
	return overload.No
}

var rules = overload.Rules[string]{
	Convert: func(arg, param string, loose bool) overload.Answer {
		if loose {
			switch {
			case arg == "int" && param != "int" && param != "long":
				arg = "Integer"
			case arg == "Integer" && (param == "int" || param == "long"):
				arg = "int"
			}
		}
		return subtype(arg, param)
	},
	Subtype: subtype,
	Elem:    func(t string) string { return strings.TrimSuffix(t, "[]") },
}

func m(params string, varargs bool) overload.Method[string] {
	var ps []string
	if params != "" {
		ps = strings.Split(params, ",")
	}
	return overload.Method[string]{Params: ps, Varargs: varargs}
}

func TestChoose(t *testing.T) {
	tests := []struct {
		name    string
		methods []overload.Method[string]
		args    string
		want    int
		outcome overload.Outcome
	}{
		{"exact type", []overload.Method[string]{m("String", false), m("Integer", false)}, "Integer", 1, overload.Chosen},
		{"subtype", []overload.Method[string]{m("String", false), m("Number", false)}, "Integer", 1, overload.Chosen},
		{"most specific", []overload.Method[string]{m("Object", false), m("String", false)}, "String", 1, overload.Chosen},
		{"widening before boxing", []overload.Method[string]{m("Integer", false), m("long", false)}, "int", 1, overload.Chosen},
		{"boxing when nothing is strict", []overload.Method[string]{m("Object", false), m("String", false)}, "int", 0, overload.Chosen},
		{"unboxing", []overload.Method[string]{m("long", false), m("String", false)}, "Integer", 0, overload.Chosen},
		{"fixed arity before varargs", []overload.Method[string]{m("Object[]", true), m("Object", false)}, "String", 1, overload.Chosen},
		{"varargs", []overload.Method[string]{m("String,Object[]", true), m("String", false)}, "String,Integer,Integer", 0, overload.Chosen},
		{"varargs most specific", []overload.Method[string]{m("Object[]", true), m("String[]", true)}, "String,String", 1, overload.Chosen},
		{"unknown argument, one candidate left", []overload.Method[string]{m("String", false), m("Integer,Integer", false)}, "?", 0, overload.Chosen},
		{"unknown argument, two candidates", []overload.Method[string]{m("String", false), m("Integer", false)}, "?", -1, overload.Ambiguous},
		{"unknown argument excluded by a known one", []overload.Method[string]{m("String,String", false), m("Integer,Integer", false)}, "?,Integer", 1, overload.Chosen},
		{"known winner whatever the unknown", []overload.Method[string]{m("Object,Object", false), m("String,String", false)}, "String,?", -1, overload.Ambiguous},
		{"unknown could be more specific", []overload.Method[string]{m("Object", false), m("String", false)}, "?", -1, overload.Ambiguous},
		{"neither more specific", []overload.Method[string]{m("Object,String", false), m("String,Object", false)}, "String,String", -1, overload.Ambiguous},
		{"no method applies", []overload.Method[string]{m("String", false)}, "Integer", -1, overload.None},
		{"no arguments", []overload.Method[string]{m("", false), m("String", false)}, "", 0, overload.Chosen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args []string
			if tt.args != "" {
				args = strings.Split(tt.args, ",")
			}
			got, outcome := overload.Choose(tt.methods, args, rules)
			if got != tt.want || outcome != tt.outcome {
				t.Errorf("Choose(%s) = %d, %d; want %d, %d", tt.args, got, outcome, tt.want, tt.outcome)
			}
		})
	}
}
