package golang

import (
	"slices"
	"strings"
	"testing"
)

func TestNormExpr(t *testing.T) {
	locals := map[string]string{"s": "{Server}", "c": "NewClient()", "x": "?range variable", "w": "{A}|NewA()"}
	lookup := func(n string) (string, bool) { v, ok := locals[n]; return v, ok }
	for in, want := range map[string]string{
		"fmt.Println":                "fmt.Println",
		"s.handler.ServeHTTP":        "{Server}.handler.ServeHTTP",
		"c.Do":                       "NewClient().Do",
		"x.Close":                    "?local x: range variable",
		"(&Server{Addr: a}).Serve":   "{Server}.Serve",
		"http.Server{}.Close":        "{http.Server}.Close",
		"new(bytes.Buffer).String":   "{bytes.Buffer}.String",
		"v.(io.Reader).Read":         "{io.Reader}.Read",
		"NewList[int]().Push":        "NewList[]().Push",
		"func() {}":                  "?function literal",
		"w.Read":                     "{A}.Read|NewA().Read",
		"(w).r.Read":                 "{A}.r.Read|NewA().r.Read",
		"[]byte":                     "?composite literal",
		"m[k].Run":                   "m[].Run",
		"a.b(c, d(e)).f":             "a.b().f",
		"s.\n\tLogf":                 "{Server}.Logf",
		"(*T).Method":                "T.Method", // a method expression: calls T's method
		"strings.NewReader(`)`).Len": "strings.NewReader().Len",
	} {
		if got := normExpr(in, lookup, nil); got != want {
			t.Errorf("normExpr(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormType(t *testing.T) {
	tp := map[string]bool{"T": true}
	for in, want := range map[string]string{
		"*Server":                   "{Server}",
		"http.Handler":              "{http.Handler}",
		"*List[int]":                "{List}",
		"[]byte":                    "?unnamed type",
		"map[string]int":            "?unnamed type",
		"T":                         "?type parameter",
		"error":                     "?builtin type error",
		"(*pkg.T)":                  "{pkg.T}",
		"structure":                 "{structure}",
		"chan<- int":                "?unnamed type",
		"[]*Server":                 "{[]Server}",
		"[8]pkg.T":                  "{[]pkg.T}",
		"map[string]*http.Client":   "{[]http.Client}",
		"map[[2]int]Server":         "{[]Server}",
		"[][]Server":                "?unnamed type",
		"[]T":                       "?unnamed type",
		"map[string]map[int]Server": "?unnamed type",
	} {
		if got := normType(in, tp); got != want {
			t.Errorf("normType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParamTypes(t *testing.T) {
	for in, want := range map[string]string{
		"w ResponseWriter, r *Request": "ResponseWriter|*Request",
		"a, b int, c string":           "int|int|string",
		"int, string":                  "int|string",
		"f func(a, b int) error":       "func(a, b int) error",
		"ch chan int, m map[K]V":       "chan int|map[K]V",
		"":                             "",
	} {
		if got := strings.Join(paramTypes(in), "|"); got != want {
			t.Errorf("paramTypes(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDefaultBuild(t *testing.T) {
	for _, c := range []struct {
		file, expr string
		want       bool
	}{
		{"os/file.go", "", true},
		{"os/file_windows.go", "", false},
		{"os/file_linux.go", "", true},
		{"os/file_linux_arm64.go", "", false},
		{"os/file_amd64.go", "", true},
		{"os/file_unix.go", "unix && !darwin", true},
		{"os/file_plan.go", "plan9", false},
		{"os/file_test.go", "ignore", false},
		{"os/stat_linux_test.go", "", true},
	} {
		if got := defaultBuild(c.file, c.expr); got != c.want {
			t.Errorf("defaultBuild(%q, %q) = %v, want %v", c.file, c.expr, got, c.want)
		}
	}
}

// TestSegments splits expressions as evaluation reads them: the head,
// then one segment at a time, "?" ending what it cannot read.
func TestSegments(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string
	}{
		{"a", []string{"a"}},
		{"a.b().c", []string{"a", ".b", "()", ".c"}},
		{"{pkg.T}.x()", []string{"{pkg.T}", ".x", "()"}},
		{"a.b[]()", []string{"a", ".b", "[]", "()"}},
		{"a[i].b", []string{"a", "?"}},
		{"f().g.h", []string{"f", "()", ".g", ".h"}},
	} {
		head, rest := splitHead(c.expr)
		got := []string{head}
		for len(rest) > 0 {
			var seg string
			seg, rest = nextSeg(rest)
			got = append(got, seg)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.expr, got, c.want)
		}
	}
}
