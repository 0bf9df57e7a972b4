package languagetest

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
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

// Setting is where a language's snippets of TypeUses stand: each in the
// file named File, between Before and After, beside Files (which declare
// the types the snippets use).
type Setting struct {
	Files         map[string]string
	File          string
	Before, After string
}

// files returns the files of a snippet in its setting.
func (s Setting) files(src string) map[string]string {
	files := maps.Clone(s.Files)
	if files == nil {
		files = make(map[string]string)
	}
	files[s.File] = s.Before + src + s.After
	return files
}

// TypeUse is one form of a type's use and a snippet (Src) that shows it:
// Want are edge lines (prefixes, as Expect takes them: `src -kind-> dst
// (resolution`) the snippet must give, Wrong lines it must not.
type TypeUse struct {
	Form  string
	Src   string
	Want  []string
	Wrong []string
}

// TypeUses holds a language to the forms of a type's use it records: each
// use's snippet, in its setting and indexed with langs, must give its
// edges. records lists the forms the language records (FORMAT.md's table
// says the same); every one of them needs a snippet here, and no snippet
// may show a form the language does not claim.
func TypeUses(t *testing.T, setting Setting, records []string, uses []TypeUse, langs ...indexer.Language) {
	t.Helper()
	if len(langs) > 0 {
		documented, err := documentedForms(langs[0].Name())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sortedForms(records), sortedForms(documented)) {
			t.Errorf("FORMAT.md's table of the uses of a type says %s records %v; the test says %v", langs[0].Name(), documented, records)
		}
	}
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
			Expect(t, Edges(t, setting.files(u.Src), langs...), u.Want, u.Wrong...)
		})
	}
}

func sortedForms(forms []string) []string {
	out := slices.Clone(forms)
	slices.SortFunc(out, func(a, b string) int { return slices.Index(Forms, a) - slices.Index(Forms, b) })
	return out
}

// documentedForms reads the forms schemas/FORMAT.md's table "Uses of a
// type" marks for lang.
func documentedForms(lang string) ([]string, error) {
	_, here, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(here), "..", "..", "schemas", "FORMAT.md")
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var header []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Uses of a type"
		case !in || !strings.HasPrefix(line, "|"):
		case header == nil:
			header = cells(line)
		default:
			row := cells(line)
			names := strings.Split(row[0], ",")
			if !slices.ContainsFunc(names, func(n string) bool { return strings.TrimSpace(n) == lang }) {
				continue
			}
			var forms []string
			for i, c := range row[1:] {
				if c != "" && i+1 < len(header) {
					forms = append(forms, header[i+1])
				}
			}
			return forms, nil
		}
	}
	return nil, fmt.Errorf("%s: no row for %s in the table of \"## Uses of a type\"", path, lang)
}

func cells(line string) []string {
	parts := strings.Split(strings.Trim(line, "|"), "|")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}
