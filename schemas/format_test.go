package schemas

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// docTables reads FORMAT.md's column tables: section file name → [(column, type)].
func docTables(t *testing.T) map[string][][2]string {
	t.Helper()
	data, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string][][2]string)
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = strings.TrimSpace(h)
			continue
		}
		if !strings.HasSuffix(section, ".parquet") || !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 3 {
			continue
		}
		name, typ := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		if name == "column" || strings.HasPrefix(name, "---") {
			continue
		}
		out[section] = append(out[section], [2]string{name, typ})
	}
	return out
}

// docType is how FORMAT.md names a Go field's type.
func docType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Uint64:
		return "uint64"
	case reflect.Uint32:
		return "uint32"
	case reflect.Int32:
		return "int32"
	case reflect.Int64:
		return "int64"
	case reflect.Float32:
		return "float"
	case reflect.Bool:
		return "bool"
	case reflect.String:
		return "string"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "binary"
		}
		return `list\<` + docType(t.Elem()) + `\>`
	}
	return t.String()
}

func TestFormatDocumentsEveryColumn(t *testing.T) {
	doc := docTables(t)
	for file, row := range map[string]any{
		NodesFile: Node{}, EdgesFile: Edge{}, FilesFile: File{}, SourcesFile: Source{}, RefsFile: Ref{},
	} {
		var code [][2]string
		rt := reflect.TypeOf(row)
		for i := range rt.NumField() {
			f := rt.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
			code = append(code, [2]string{name, docType(f.Type)})
		}
		if !reflect.DeepEqual(code, doc[file]) {
			t.Errorf("%s: FORMAT.md documents\n  %v\nthe Go row type has\n  %v", file, doc[file], code)
		}
		// The parquet schema has the same columns in the same order.
		schema := parquet.SchemaOf(row)
		var cols []string
		for _, f := range schema.Fields() {
			cols = append(cols, f.Name())
		}
		var want []string
		for _, c := range code {
			want = append(want, c[0])
		}
		if !reflect.DeepEqual(cols, want) {
			t.Errorf("%s: parquet schema columns %v, want %v", file, cols, want)
		}
	}
}

func TestFormatListsEveryValue(t *testing.T) {
	data, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for what, values := range map[string][]string{
		"Node kinds:": NodeKinds, "Edge kinds:": EdgeKinds, "Resolutions:": Resolutions, "Statuses:": FileStatuses,
	} {
		i := strings.Index(doc, what)
		if i < 0 {
			t.Errorf("FORMAT.md has no %q paragraph", what)
			continue
		}
		para, _, _ := strings.Cut(doc[i:], "\n\n")
		found := regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(para, -1)
		var got []string
		for _, m := range found {
			got = append(got, m[1])
		}
		for _, v := range values {
			if !strings.Contains(para, "`"+v+"`") {
				t.Errorf("%s: %q is not documented", what, v)
			}
		}
		for _, g := range got {
			known := false
			for _, v := range values {
				known = known || v == g
			}
			if !known && g != "file" && g != "parent_id" && g != "dst" {
				t.Errorf("%s: FORMAT.md documents %q, which the code does not have", what, g)
			}
		}
	}
	if !strings.Contains(doc, "version 1") || FormatVersion != 1 {
		t.Errorf("FORMAT.md's version and FormatVersion (%d) disagree", FormatVersion)
	}
}

func TestManifestMatchesSchema(t *testing.T) {
	var doc any
	if err := json.Unmarshal(ManifestSchema, &doc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("manifest.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("manifest.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	m := Manifest{
		FormatVersion: FormatVersion, FeatureVersion: FeatureVersion, Repo: "graphsnap/snap", Branch: "main",
		Commit: strings.Repeat("a", 40), Parents: []string{strings.Repeat("b", 40)},
		IndexedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Indexer:   Indexer{Name: "snap", Version: "dev", GoVersion: "go1.26", Args: []string{"index", "."}},
		Grammars:  map[string]string{"go": "v0.25.0"},
		Counts:    Counts{Files: 1, Nodes: 2, Edges: 3, Languages: map[string]int{"go": 1}},
		Build:     Build{DurationMS: 5, Workers: 2, FilesParsed: 1},
		Tables:    []Table{{Name: TableNodes, File: NodesFile, Rows: 2, Bytes: 100, SHA256: strings.Repeat("c", 64)}},
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("a manifest from the Go type fails the schema: %v", err)
	}
	// A build key's commit (snapshot.BuildCommit) is a commit too.
	built := bytes.Replace(data, []byte(m.Commit), []byte(m.Commit+"-build-0123456789abcdef"), 1)
	if inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(built)); sch.Validate(inst) != nil {
		t.Errorf("the schema refuses a build key's commit: %v", sch.Validate(inst))
	}
	// Every field of the Go type is in the schema, and the other way round.
	var asMap map[string]any
	json.Unmarshal(data, &asMap)
	props := doc.(map[string]any)["properties"].(map[string]any)
	for k := range asMap {
		if _, ok := props[k]; !ok {
			t.Errorf("manifest field %q is not in manifest.schema.json", k)
		}
	}
	for k := range props {
		if _, ok := asMap[k]; !ok && k != "base" {
			t.Errorf("manifest.schema.json has %q, which the Go type does not write", k)
		}
	}
	// The schema refuses what is wrong.
	bad := bytes.Replace(data, []byte(`"format_version":1`), []byte(`"format_version":"1"`), 1)
	inst, _ = jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if err := sch.Validate(inst); err == nil {
		t.Error("the schema accepts a string format_version")
	}
}
