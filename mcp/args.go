package mcp

import (
	"bytes"
	"cmp"
	"context"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/graphsnap/snap/query"
)

// newTool declares a tool whose arguments decode into In and whose answer
// is an Out. In's exported fields are the arguments: their json names,
// `jsonschema:"..."` tags as descriptions, `enum:"a,b"` tags as allowed
// values; fields without omitempty are required. Out's JSON Schema is the
// tool's output schema.
func newTool[In, Out any](name, title, toolset, description string, run func(ctx context.Context, e *query.Engine, in *In) (*Out, *ToolError)) *Tool {
	schema, fields := inputSchema[In]()
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("mcp: %s: marshal schema: %v", name, err))
	}
	if len(schema.Properties) == 0 {
		raw = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`) // some clients want properties
	}
	return &Tool{
		Name: name, Title: title, Toolset: toolset, Description: description,
		Input: new(In), InputSchema: raw, OutputSchema: outputSchema[Out](name), schema: schema,
		Handler: func(ctx context.Context, e *query.Engine, args json.RawMessage) (any, *ToolError) {
			in := new(In)
			def := DefaultLimit
			if r := registryFrom(ctx); r != nil {
				def = r.pageLimit(ctx)
			}
			if err := decode(name, args, schema, fields, in, def, repoScoped(ctx)); err != nil {
				return nil, err
			}
			out, terr := run(ctx, e, in)
			if terr != nil {
				return nil, terr
			}
			noNulls(reflect.ValueOf(out))
			return out, nil
		},
	}
}

// noNulls makes the nil slices and maps of v that its JSON would write
// as null (those without omitempty) empty, as the output schemas say
// they are: a client that checks answers against them refuses a null.
func noNulls(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			noNulls(v.Elem())
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f, fv := t.Field(i), v.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.IsNil() && fv.CanSet() &&
				!strings.Contains(f.Tag.Get("json"), ",omitempty") && f.Type != reflect.TypeFor[json.RawMessage]() {
				if fv.Kind() == reflect.Slice {
					fv.Set(reflect.MakeSlice(f.Type, 0, 0))
				} else {
					fv.Set(reflect.MakeMap(f.Type))
				}
				continue
			}
			noNulls(fv)
		}
	case reflect.Slice:
		if k := v.Type().Elem().Kind(); k == reflect.Struct || k == reflect.Pointer {
			for i := range v.Len() {
				noNulls(v.Index(i))
			}
		}
	}
}

// typeSchemas are the schemas of types that do not say in Go what they
// are in JSON.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	// Ids are decimal strings (JSON numbers lose precision above 2^53 in
	// many clients); a number is taken too.
	reflect.TypeFor[ID](): {Type: "string"}, // decimal digits, checked on decoding
	// Another tool's answer, as it is.
	reflect.TypeFor[json.RawMessage](): {Type: "object"},
}

// outputSchema derives Out's JSON Schema: what the tool's structured
// content holds when the call succeeds. A named struct type that Out
// holds in more than one place (a symbol and its callers, an outline and
// its children) is written once under $defs and referenced: every client
// pays for the schema in tokens at tools/list.
func outputSchema[Out any](tool string) json.RawMessage {
	opts := &jsonschema.ForOptions{TypeSchemas: maps.Clone(typeSchemas)}
	shared := repeatedTypes(reflect.TypeFor[Out]())
	names := make(map[reflect.Type]string, len(shared))
	for _, t := range shared {
		name := defName(t, names)
		names[t] = name
		opts.TypeSchemas[t] = &jsonschema.Schema{Ref: "#/$defs/" + name}
		opts.TypeSchemas[reflect.PointerTo(t)] = &jsonschema.Schema{Ref: "#/$defs/" + name}
	}
	schema, err := jsonschema.For[Out](opts)
	if err != nil {
		panic(fmt.Sprintf("mcp: %s: output schema: %v", tool, err))
	}
	for _, t := range shared {
		// The definition is the schema of a type with t's fields, not
		// the reference that t is; a recursive t refers to itself inside.
		def, err := jsonschema.ForType(reflect.StructOf(fieldsOf(t)), opts)
		if err != nil {
			panic(fmt.Sprintf("mcp: %s: output schema of %v: %v", tool, t, err))
		}
		if schema.Defs == nil {
			schema.Defs = make(map[string]*jsonschema.Schema)
		}
		schema.Defs[names[t]] = def
	}
	tidy(schema)
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("mcp: %s: marshal output schema: %v", tool, err))
	}
	return raw
}

// fieldsOf gives t's fields for reflect.StructOf: a type of its own with
// the same JSON, so that t's schema can be derived while t itself stays
// a reference (recursive types, such as outline, refer to themselves).
func fieldsOf(t reflect.Type) []reflect.StructField {
	fields := make([]reflect.StructField, 0, t.NumField())
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			fields = append(fields, f)
		}
	}
	return fields
}

// repeatedTypes lists the named struct types that t holds in more than
// one place, in the order they are first met. An embedded struct is not
// one: its fields are its holder's.
func repeatedTypes(t reflect.Type) []reflect.Type {
	count := map[reflect.Type]int{}
	embedded := map[reflect.Type]bool{}
	var order []reflect.Type
	var walk func(t reflect.Type, open map[reflect.Type]bool, anonymous bool)
	walk = func(t reflect.Type, open map[reflect.Type]bool, anonymous bool) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || typeSchemas[t] != nil || writesItself(t) {
			return
		}
		if anonymous {
			embedded[t] = true
		} else if t.Name() != "" {
			if count[t]++; count[t] == 1 {
				order = append(order, t)
			}
			if open[t] {
				return
			}
			open[t] = true
			defer delete(open, t)
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				walk(f.Type, open, f.Anonymous)
			}
		}
	}
	walk(t, map[reflect.Type]bool{}, true)
	return slices.DeleteFunc(order, func(t reflect.Type) bool { return count[t] < 2 || embedded[t] })
}

// writesItself tells whether t has its own JSON (time.Time), which its
// fields do not describe.
func writesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || p.Implements(jsonMarshaler) || t.Implements(textMarshaler) || p.Implements(textMarshaler)
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// defName names t under $defs: its Go name, lower-cased, unless another
// type has that name already.
func defName(t reflect.Type, taken map[reflect.Type]string) string {
	name := strings.ToLower(t.Name()[:1]) + t.Name()[1:]
	for _, n := range taken {
		if n == name {
			return strings.ReplaceAll(t.PkgPath(), "/", ".") + "." + t.Name()
		}
	}
	return name
}

// tidy shortens an output schema, which every client pays for in tokens
// at tools/list: the bounds of Go's integer types and the closing of
// objects to other properties say nothing a reader of answers needs. It
// also drops the "null" the generator adds for pointers, slices and maps:
// the answers' pointers to outlines are never nil.
func tidy(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Ref != "" && slices.Equal(s.Types, []string{"null"}) {
		s.Types = nil
	}
	// A nil slice or map is written as null, but the answers make them
	// empty instead, or leave them out; one type is what every client's
	// schema dialect reads (see inputSchema).
	if types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" }); len(types) == 1 {
		s.Type, s.Types = types[0], nil
	}
	if s.Type == "integer" {
		s.Minimum, s.Maximum = nil, nil
	}
	s.AdditionalProperties = nil
	tidy(s.Items)
	for _, p := range s.Properties {
		tidy(p)
	}
	for _, d := range s.Defs {
		tidy(d)
	}
}

// ID is a node id as tools take it: a JSON number or a string of decimal
// digits.
type ID uint64

// UnmarshalJSON reads a number or a decimal string, keeping all 64 bits.
func (id *ID) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("want a node id (decimal digits, as a number or a string), got %s", clip(string(b)))
	}
	*id = ID(v)
	return nil
}

func idString(id uint64) string { return strconv.FormatUint(id, 10) }

// inputSchema derives In's JSON Schema, and maps its argument names to
// their fields.
func inputSchema[In any]() (*jsonschema.Schema, map[string][]int) {
	t := reflect.TypeFor[In]()
	schema, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of %v: %v", t, err))
	}
	// Optional arguments are pointers and slices, which the generator
	// types as ["null", T]. Absent says the same, and a single type is
	// what every client's schema dialect reads (the Gemini function
	// declarations' OpenAPI subset does not read type arrays); decode
	// still takes a null as absent.
	for _, p := range schema.Properties {
		if types := slices.DeleteFunc(slices.Clone(p.Types), func(t string) bool { return t == "null" }); len(types) == 1 {
			p.Type, p.Types = types[0], nil
		}
	}
	fields := argFields(t)
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if _, ok := fields[name]; !ok || f.Anonymous || !f.IsExported() {
			continue
		}
		if enum, ok := f.Tag.Lookup("enum"); ok {
			p := schema.Properties[name]
			if p.Items != nil {
				p = p.Items
			}
			for v := range strings.SplitSeq(enum, ",") {
				p.Enum = append(p.Enum, v)
			}
		}
	}
	return schema, fields
}

// argFields maps the argument names of input type t to their fields.
func argFields(t reflect.Type) map[string][]int {
	fields := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous || !f.IsExported() || name == "" || name == "-" {
			continue
		}
		fields[name] = f.Index
	}
	return fields
}

// decode checks args against schema and fills in, argument by argument, so
// that any failure names its argument and says, in words, what it takes.
// Strings and lists over their bounds (maxArgBytes, maxListItems) are
// refused with LIMIT_EXCEEDED.
func decode(tool string, args json.RawMessage, schema *jsonschema.Schema, fields map[string][]int, in any, defaultLimit int, repoArg bool) *ToolError {
	var m map[string]json.RawMessage
	if kind := jsonKind(args); kind != "" && kind != "null" {
		if kind != "object" {
			return toolErr(CodeInvalidArgument, map[string]any{"arguments": schema.PropertyOrder},
				"arguments must be a JSON object of named arguments, got %s; %s", an(kind), takes(tool, schema))
		}
		if err := json.Unmarshal(args, &m); err != nil {
			return toolErr(CodeInvalidArgument, nil, "arguments are not valid JSON; %s", takes(tool, schema))
		}
	}
	names := slices.Sorted(maps.Keys(m))
	for _, k := range names {
		if k == repoArgName && repoArg {
			continue // the registry chose the repository (repos.go)
		}
		if _, ok := fields[k]; !ok {
			return toolErr(CodeInvalidArgument, map[string]any{"argument": clip(k), "arguments": schema.PropertyOrder},
				"unknown argument %s; %s", quote(k), takes(tool, schema))
		}
	}
	for _, k := range schema.Required {
		if v, ok := m[k]; !ok || string(v) == "null" {
			return argErr(k, "required: want %s", jsonType(schema.Properties[k]))
		}
	}
	rv := reflect.ValueOf(in).Elem()
	for _, k := range names {
		if string(m[k]) == "null" || k == repoArgName && repoArg {
			continue
		}
		f := rv.FieldByIndex(fields[k])
		if err := json.Unmarshal(m[k], f.Addr().Interface()); err != nil {
			want := jsonType(schema.Properties[k])
			if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) {
				if jsonKind(m[k]) == "array" && te.Value != "array" {
					return argErr(k, "want %s, got %s in the list", want, te.Value)
				}
				return argErr(k, "want %s, got %s", want, te.Value)
			}
			if strings.HasPrefix(err.Error(), "json: ") { // Go's words, not a client's
				return argErr(k, "want %s, got %s", want, jsonKind(m[k]))
			}
			return argErr(k, "%v", err) // an input type's own words (ID)
		}
		bound := maxArgBytes
		if rv.Type().FieldByIndex(fields[k]).Tag.Get("bound") == "memory" {
			bound = maxMemory
		}
		if terr := checkBounds(k, f, bound); terr != nil {
			return terr
		}
	}
	if p, ok := in.(pager); ok {
		p.bind(tool, queryHash(m), defaultLimit)
	}
	return nil
}

// checkBounds refuses a string argument longer than bound bytes, and a
// list longer than maxListItems or holding such a string.
func checkBounds(arg string, v reflect.Value, bound int) *ToolError {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		if v.Len() > bound {
			return limitErr(arg, bound, "%d bytes; at most %d", v.Len(), bound)
		}
	case reflect.Slice:
		if v.Len() > maxListItems {
			return limitErr(arg, maxListItems, "%d items; at most %d", v.Len(), maxListItems)
		}
		if v.Type().Elem().Kind() == reflect.String {
			for i := range v.Len() {
				if n := v.Index(i).Len(); n > bound {
					return limitErr(arg, bound, "item %d has %d bytes; at most %d", i, n, bound)
				}
			}
		}
	}
	return nil
}

// takes says what arguments a tool takes, for an error that refuses some.
func takes(tool string, schema *jsonschema.Schema) string {
	if len(schema.PropertyOrder) == 0 {
		return tool + " takes no arguments: send {}"
	}
	return tool + " takes " + strings.Join(schema.PropertyOrder, ", ")
}

// jsonKind names the kind of JSON value raw holds, by its first byte:
// object, array, string, number, boolean or null; "" when raw is empty.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// an is a kind of JSON value with its article: "an object", "a string".
func an(kind string) string {
	switch kind {
	case "object", "array":
		return "an " + kind
	case "null", "":
		return "null"
	}
	return "a " + kind
}

// pager is an input with paging arguments.
type pager interface {
	bind(tool string, query uint64, defaultLimit int)
}

// jsonType names the JSON type a property schema wants.
func jsonType(s *jsonschema.Schema) string {
	types := slices.DeleteFunc(append([]string{s.Type}, s.Types...), func(t string) bool { return t == "" || t == "null" })
	name := strings.Join(types, " or ")
	if s.Items != nil {
		name += " of " + jsonType(s.Items)
	}
	return name
}

// queryHash identifies a list query by its arguments, less limit, cursor
// and those given as null.
func queryHash(m map[string]json.RawMessage) uint64 {
	h := fnv.New64a()
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k == "limit" || k == "cursor" || string(bytes.TrimSpace(m[k])) == "null" {
			continue // null is absent, as decode takes it
		}
		var v bytes.Buffer
		json.Compact(&v, m[k])
		fmt.Fprintf(h, "%s=%s\x00", k, v.Bytes())
	}
	return h.Sum64()
}

// target selects one symbol: by id, or by name and file.
type target struct {
	ID   *ID    `json:"id,omitempty" jsonschema:"symbol id; wins over name"`
	Name string `json:"name,omitempty" jsonschema:"Serve, Server.Serve or a qname"`
	File string `json:"file,omitempty" jsonschema:"its file, or a path suffix"`
}

// resolve finds the one symbol t selects.
func (t *target) resolve(e *query.Engine) (int32, *ToolError) {
	return resolveSymbol(e, t.ID, t.Name, t.File, "id", "name")
}

// maxCandidates bounds the candidates an ambiguity error lists.
const maxCandidates = 20

func resolveSymbol(e *query.Engine, id *ID, name, file, idArg, nameArg string) (int32, *ToolError) {
	if id != nil {
		r, ok := e.Lookup(uint64(*id))
		if !ok {
			return -1, toolErr(CodeSymbolNotFound, map[string]string{idArg: idString(uint64(*id))},
				"no symbol with id %d in this snapshot; ids change when a symbol is renamed or moved to another file: find it again by name", uint64(*id))
		}
		return r, nil
	}
	if strings.TrimSpace(name) == "" {
		return -1, toolErr(CodeInvalidArgument, map[string]any{"arguments": []string{idArg, nameArg}}, "give %s or %s", idArg, nameArg)
	}
	rows := e.Find(name, file)
	switch {
	case len(rows) == 1:
		return rows[0], nil
	case len(rows) > 1:
		cands := make([]candidate, 0, min(len(rows), maxCandidates))
		for _, r := range rows[:min(len(rows), maxCandidates)] {
			n := e.Node(r)
			cands = append(cands, candidate{ID: idString(n.ID), Kind: n.Kind, QName: n.QualifiedName, File: n.File, Line: n.StartLine})
		}
		return -1, toolErr(CodeAmbiguousSymbol, map[string]any{"candidates": cands, "total": len(rows)},
			"%d symbols match %s; select one by id, or narrow with a qualified name or file", len(rows), quote(name))
	}
	details := map[string]any{nameArg: clip(name)}
	msg := "no symbol matches " + quote(name)
	if file != "" {
		details["file"] = clip(file)
		msg += " in " + clip(file)
		if n := len(e.Find(name, "")); n > 0 {
			msg += fmt.Sprintf(" (%d elsewhere: drop file)", n)
		}
	}
	if dym := e.Suggest(name, 5); len(dym) > 0 {
		details["did_you_mean"] = dym
	}
	return -1, toolErr(CodeSymbolNotFound, details, "%s; snap_search ranks partial and fuzzy matches", msg)
}

type candidate struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	QName string `json:"qname"`
	File  string `json:"file"`
	Line  uint32 `json:"line"`
}

// Page bounds.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// page is the paging arguments of a list tool.
type page struct {
	Limit  *int   `json:"limit,omitempty" jsonschema:"items per page (default 50)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the last page"`

	tool  string
	query uint64
	def   int // the limit when none is given
}

func (p *page) bind(tool string, query uint64, def int) { p.tool, p.query, p.def = tool, query, def }

// window returns the offset and length of the page asked for.
func (p *page) window(e *query.Engine) (offset, limit int, err *ToolError) {
	limit = cmp.Or(p.def, DefaultLimit)
	if p.Limit != nil {
		if *p.Limit <= 0 {
			return 0, 0, argErr("limit", "must be at least 1, got %d", *p.Limit)
		}
		limit = min(*p.Limit, MaxLimit)
	}
	if p.Cursor == "" {
		return 0, limit, nil
	}
	b, derr := base64.RawURLEncoding.DecodeString(p.Cursor)
	parts := strings.Split(string(b), "|")
	if derr != nil || len(parts) != 5 || parts[0] != "1" {
		return 0, 0, toolErr(CodePagination, map[string]string{"cursor": p.Cursor}, "cursor is not one this server issued; repeat the query without it")
	}
	off, perr := strconv.Atoi(parts[4])
	if perr != nil || off < 0 {
		return 0, 0, toolErr(CodePagination, map[string]string{"cursor": p.Cursor}, "cursor is not one this server issued; repeat the query without it")
	}
	if parts[1] != e.Fingerprint() {
		return 0, 0, toolErr(CodePagination, map[string]string{"cursor": p.Cursor, "commit": e.Commit()},
			"cursor belongs to another snapshot; the index moved to commit %s: repeat the query without cursor", e.Commit())
	}
	if parts[2] != p.tool || parts[3] != strconv.FormatUint(p.query, 16) {
		return 0, 0, toolErr(CodePagination, map[string]string{"cursor": p.Cursor}, "cursor belongs to another query; pass it with the same arguments as the query that returned it")
	}
	return off, limit, nil
}

// next returns the cursor of the page starting at offset.
func (p *page) next(e *query.Engine, offset int) string {
	s := fmt.Sprintf("1|%s|%s|%x|%d", e.Fingerprint(), p.tool, p.query, offset)
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

// paginate cuts the page [offset, offset+limit) out of items, with the
// cursor of the next page if there is one.
func paginate[T any](e *query.Engine, p *page, items []T) (out []T, next string, err *ToolError) {
	off, limit, err := p.window(e)
	if err != nil {
		return nil, "", err
	}
	if off >= len(items) {
		return nil, "", nil
	}
	end := min(off+limit, len(items))
	if end < len(items) {
		next = p.next(e, end)
	}
	return items[off:end], next, nil
}
