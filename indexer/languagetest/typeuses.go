package languagetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/indexer"
)

// The forms of a type's use a language may record, as FORMAT.md's table
// "Uses of a type" names them. A construction is an `instantiates` edge
// from the enclosing symbol to the type; every other form is a
// `references` edge.
const (
	FormConstruct  = "construct"  // T{}, &T{}, new(T), new T(), T() of a class
	FormField      = "field"      // a field's or property's declared type
	FormParam      = "param"      // a parameter's declared type
	FormResult     = "result"     // a declared result or return type
	FormVar        = "var"        // a variable's or constant's declared type
	FormConversion = "conversion" // T(x), (T) x, x as T
	FormAssertion  = "assertion"  // x.(T), instanceof T, isinstance(x, T), a type switch or pattern case
	FormTypeArg    = "typearg"    // a generic type argument: List<T>, F[T]
	FormEmbed      = "embed"      // an embedded struct field or mixed-in type
	FormExtends    = "extends"    // a superclass or super-interface clause
	FormImplements = "implements" // an implements clause
	FormAnnotation = "annotation" // an annotation, attribute or decorator naming a type
	FormThrows     = "throws"     // a throws clause or a caught exception type
)

// Forms lists every form, in FORMAT.md's order.
var Forms = []string{
	FormConstruct, FormField, FormParam, FormResult, FormVar, FormConversion,
	FormAssertion, FormTypeArg, FormEmbed, FormExtends, FormImplements,
	FormAnnotation, FormThrows,
}

// TypeUse is one form of a type's use and a snippet that shows it: Want
// are edge lines (prefixes, as Expect takes them: `src -kind-> dst
// (resolution`) the snippet must give, Wrong lines it must not.
type TypeUse struct {
	Form  string
	Files map[string]string
	Want  []string
	Wrong []string
}

// TypeUses holds a language to the forms of a type's use it records: each
// use's snippet, indexed with lang, must give its edges. records lists
// the forms the language records (FORMAT.md's table says the same); every
// one of them needs a snippet here, and no snippet may show a form the
// language does not claim.
func TypeUses(t *testing.T, records []string, uses []TypeUse, langs ...indexer.Language) {
	t.Helper()
	for _, f := range records {
		if !slices.Contains(Forms, f) {
			t.Fatalf("unknown form %q (have %s)", f, strings.Join(Forms, ", "))
		}
		if !slices.ContainsFunc(uses, func(u TypeUse) bool { return u.Form == f }) {
			t.Errorf("form %q is recorded but has no snippet", f)
		}
	}
	for _, u := range uses {
		if !slices.Contains(records, u.Form) {
			t.Errorf("snippet of form %q, which the language does not record", u.Form)
			continue
		}
		t.Run(u.Form, func(t *testing.T) {
			if len(u.Want) == 0 {
				t.Fatal("a snippet with no edge to want holds nothing")
			}
			Expect(t, Edges(t, u.Files, langs...), u.Want, u.Wrong...)
		})
	}
}
