// Package clientconfig adds an MCP server that runs snap serve to the
// configuration file of an MCP client (Claude Code, Cursor, VS Code, Codex,
// Claude Desktop), keeping the rest of the file as it was: the other
// servers, the other keys, comments and trailing commas, the layout, the
// file's mode. The new file replaces the old one atomically; a file that
// does not parse is left alone, with an error that says where.
package clientconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/tailscale/hujson"
)

// A Client is an MCP client whose configuration Setup edits.
type Client struct {
	Name  string // as named on the command line
	Title string
	// User marks a file of the user's rather than of the repository's,
	// created 0600.
	User bool
	// Absolute: the client starts servers without a shell's PATH, so the
	// command must be an absolute path.
	Absolute bool
	Note     string // what to tell the user after a change

	toml bool   // the file is TOML; JSON (or JSON with comments) otherwise
	key  string // the object or table that holds the servers
	path func(t Target) (string, error)
	// entry is the server entry that runs snap serve for the repository.
	entry func(t Target) []field
}

// A Target is the repository a server entry serves, the snap binary
// that serves it, and the user's folders, where the clients whose
// configuration is the user's keep it.
type Target struct {
	Root, Repo, Branch string
	Command            string // the snap the client runs
	User               UserDirs
}

// UserDirs are the user's folders, as the environment names them: the
// caller reads them.
type UserDirs struct {
	Home      string // the home folder (os.UserHomeDir)
	Config    string // the configuration folder (os.UserConfigDir)
	CodexHome string // $CODEX_HOME; "" is .codex in Home
}

// field is one key of a server entry.
type field struct {
	key string
	val any // a string or a []string
	// implied: a missing key means val (Claude Code's default type).
	implied bool
}

// Clients are the clients Setup knows, each in the format its documentation gives: Claude Code
// (code.claude.com/docs/en/mcp, project scope), Cursor
// (cursor.com/docs/mcp), VS Code
// (code.visualstudio.com/docs/copilot/reference/mcp-configuration; cwd as
// VS Code's own .vscode/mcp.json uses it), Codex
// (developers.openai.com/codex/mcp) and Claude Desktop (the file its
// Settings > Developer > Edit Config opens). Claude Desktop starts servers
// in /, hence the absolute paths in its entry.
var Clients = []Client{
	{
		Name: "claude", Title: "Claude Code", key: "mcpServers",
		path: func(t Target) (string, error) { return filepath.Join(t.Root, ".mcp.json"), nil },
		entry: func(t Target) []field {
			return []field{{"type", "stdio", true}, {"command", t.Command, false}, {"args", []string{"serve"}, false}}
		},
		Note: "Claude Code asks to approve the project's servers when it next starts in this repository (/mcp lists them).",
	},
	{
		Name: "cursor", Title: "Cursor", key: "mcpServers",
		path: func(t Target) (string, error) { return filepath.Join(t.Root, ".cursor", "mcp.json"), nil },
		entry: func(t Target) []field {
			return []field{{"command", t.Command, false}, {"args", []string{"serve"}, false}}
		},
		Note: "Cursor loads it when it next opens this folder; its MCP settings list it.",
	},
	{
		Name: "vscode", Title: "VS Code", key: "servers",
		path: func(t Target) (string, error) { return filepath.Join(t.Root, ".vscode", "mcp.json"), nil },
		entry: func(t Target) []field {
			return []field{{"type", "stdio", false}, {"command", t.Command, false}, {"args", []string{"serve"}, false},
				{"cwd", "${workspaceFolder}", false}}
		},
		Note: "VS Code lists it under MCP: List Servers, where it can be started.",
	},
	{
		Name: "codex", Title: "Codex", toml: true, key: "mcp_servers", User: true,
		path: func(t Target) (string, error) {
			switch {
			case t.User.CodexHome != "":
				return filepath.Join(t.User.CodexHome, "config.toml"), nil
			case t.User.Home == "":
				return "", errors.New("the home folder is not known")
			}
			return filepath.Join(t.User.Home, ".codex", "config.toml"), nil
		},
		entry: func(t Target) []field {
			return []field{{"command", t.Command, false}, {"args", []string{"serve"}, false}, {"cwd", t.Root, false}}
		},
		Note: "Codex's configuration is the user's: the entry serves this repository wherever Codex runs; give each repository its own --name.",
	},
	{
		Name: "claude-desktop", Title: "Claude Desktop", key: "mcpServers", User: true, Absolute: true,
		path: func(t Target) (string, error) {
			if t.User.Config == "" {
				return "", errors.New("the configuration folder is not known")
			}
			return filepath.Join(t.User.Config, "Claude", "claude_desktop_config.json"), nil
		},
		entry: func(t Target) []field {
			return []field{{"command", t.Command, false}, {"args", []string{"serve",
				"--store", filepath.Join(t.Root, ".snap"), "--repo", t.Repo, "--branch", t.Branch}, false}}
		},
		Note: "Claude Desktop starts servers outside the repository, so the entry names its store, repository and branch; " +
			"restart Claude Desktop to load it, and run setup again with --force after switching branches.",
	},
}

// Lookup returns the client of that name.
func Lookup(name string) (Client, bool) {
	i := slices.IndexFunc(Clients, func(cl Client) bool { return cl.Name == name })
	if i < 0 {
		return Client{}, false
	}
	return Clients[i], true
}

// Names lists the clients' names, comma-separated.
func Names() string {
	var names []string
	for _, cl := range Clients {
		names = append(names, cl.Name)
	}
	return strings.Join(names, ", ")
}

var serverName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// ValidName reports whether name can name a server in every client:
// letters, digits, '-' and '_', starting with a letter or digit.
func ValidName(name string) bool { return serverName.MatchString(name) }

// State is what Setup does to an entry.
type State int

const (
	Same    State = iota // already as wanted
	Added                // added
	Updated              // changed, with Force
	Differs              // different, left alone
)

// Options tune Setup.
type Options struct {
	Name   string // the server's name in the client (see ValidName)
	Force  bool   // update an entry of that name that differs
	DryRun bool   // write nothing; Result.Content is the file as it would be
}

// Result says what Setup did, or would do.
type Result struct {
	Path  string // the configuration file
	State State
	// Diffs say how the entry of that name differs from snap's: with
	// Differs, why it was left alone; with Updated, what it was.
	Diffs []Diff
	// Content is the file after Setup, or as it would be with DryRun.
	Content []byte
	// Serve is the command line the entry runs: its command and args.
	Serve string
}

// Setup adds the server entry that runs snap serve for t to cl's
// configuration file, under opts.Name. An entry of that name that differs
// is left as it is (State Differs) unless opts.Force, which sets snap's
// keys in it (command, args, ...) and keeps the others (env, ...). A file
// that does not parse, or cannot be edited in place, is left unchanged
// and an error returned.
func Setup(cl Client, t Target, opts Options) (Result, error) {
	path, err := cl.path(t)
	if err != nil {
		return Result{}, fmt.Errorf("locate %s's configuration: %w", cl.Title, err)
	}
	entry := cl.entry(t)
	res := Result{Path: path, Serve: strings.Join(append([]string{entryString(entry, "command")}, entryStrings(entry, "args")...), " ")}
	old, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, err
	}
	if cl.toml {
		res.Content, res.State, res.Diffs, err = editTOML(old, cl.key, opts.Name, entry, opts.Force)
	} else {
		res.Content, res.State, res.Diffs, err = editJSON(old, cl.key, opts.Name, entry, opts.Force)
	}
	if err != nil {
		return res, fmt.Errorf("%s: %w\nnothing was changed", path, err)
	}
	if opts.DryRun || res.State == Same || res.State == Differs {
		return res, nil
	}
	perm, dirPerm := fs.FileMode(0o644), fs.FileMode(0o755)
	if cl.User {
		perm, dirPerm = 0o600, 0o700
	}
	return res, replaceFile(path, old, existed, res.Content, perm, dirPerm)
}

func entryString(entry []field, key string) string {
	for _, f := range entry {
		if s, ok := f.val.(string); ok && f.key == key {
			return s
		}
	}
	return ""
}

func entryStrings(entry []field, key string) []string {
	for _, f := range entry {
		if s, ok := f.val.([]string); ok && f.key == key {
			return s
		}
	}
	return nil
}

// Diff is a key where an existing entry differs from snap's.
type Diff struct {
	key       string // "" when the entry itself is not an object
	got, want string // as JSON; got is "" when the key is missing
}

func (d Diff) String() string {
	switch {
	case d.key == "":
		return fmt.Sprintf("it is %s, not an object", d.got)
	case d.got == "":
		return fmt.Sprintf("%s is missing; snap's is %s", d.key, d.want)
	}
	return fmt.Sprintf("%s is %s; snap's is %s", d.key, d.got, d.want)
}

// Was says what the entry had before Setup updated it (Options.Force).
func (d Diff) Was() string {
	switch {
	case d.key == "":
		return "it was " + d.got
	case d.got == "":
		return "it had no " + d.key
	}
	return d.key + " was " + d.got
}

// entryDiffs says how an existing entry differs from the wanted one, in
// the keys the wanted one has.
func entryDiffs(existing any, entry []field) []Diff {
	m, ok := existing.(map[string]any)
	if !ok {
		return []Diff{{got: show(existing)}}
	}
	var diffs []Diff
	for _, f := range entry {
		want := normalize(f.val)
		got, has := m[f.key]
		switch {
		case !has && !f.implied:
			diffs = append(diffs, Diff{key: f.key, want: show(want)})
		case has && !reflect.DeepEqual(normalize(got), want):
			diffs = append(diffs, Diff{key: f.key, got: show(got), want: show(want)})
		}
	}
	return diffs
}

// normalize makes v comparable to a decoded JSON value.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

func show(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(b.String())
}

// editJSON sets server name in src, a JSON file (comments and trailing
// commas allowed) keeping the servers in the object key.
func editJSON(src []byte, key, name string, entry []field, force bool) ([]byte, State, []Diff, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		doc := jsonObject{{key: key, val: jsonObject{{key: name, val: jsonObject(entry)}}}}
		return []byte(renderJSON(doc, "", "  ", "\n") + "\n"), Added, nil, nil
	}
	tree, err := decodeJSON(src)
	if err != nil {
		return nil, 0, nil, badFile(err)
	}
	top, ok := tree.(map[string]any)
	if !ok {
		return nil, 0, nil, badFile(errors.New("the top level is not an object"))
	}
	servers := map[string]any{}
	if v, ok := top[key]; ok {
		if servers, ok = v.(map[string]any); !ok {
			return nil, 0, nil, badFile(fmt.Errorf("%q is not an object", key))
		}
	}
	existing, ok := servers[name]
	if !ok {
		out, err := jsonSet(src, []string{key, name}, jsonObject(entry))
		return out, Added, nil, err
	}
	diffs := entryDiffs(existing, entry)
	switch {
	case len(diffs) == 0:
		return src, Same, nil, nil
	case !force:
		return src, Differs, diffs, nil
	}
	m, ok := existing.(map[string]any)
	if !ok {
		out, err := jsonSet(src, []string{key, name}, jsonObject(entry))
		return out, Updated, diffs, err
	}
	out := src
	for _, f := range entry {
		if got, has := m[f.key]; has && reflect.DeepEqual(normalize(got), normalize(f.val)) || !has && f.implied {
			continue
		}
		if out, err = jsonSet(out, []string{key, name, f.key}, f.val); err != nil {
			return nil, 0, nil, err
		}
	}
	return out, Updated, diffs, nil
}

// badFile is an error in a configuration file that setup cannot edit.
func badFile(err error) error {
	return fmt.Errorf("%w: fix the file, or move it aside, and run setup again", err)
}

// decodeJSON decodes src, JSON with comments and trailing commas allowed.
func decodeJSON(src []byte) (any, error) {
	v, err := hujson.Parse(bytes.Clone(src)) // Standardize writes over the comments

	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "hujson: "))
	}
	v.Standardize()
	var tree any
	if err := json.Unmarshal(v.Pack(), &tree); err != nil {
		return nil, err
	}
	return tree, nil
}

// jsonObject is a JSON object that keeps its keys in order.
type jsonObject []field

func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(f.key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(f.val); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// renderJSON renders v at a line indented by indent, nesting by unit
// (compact when unit is ""), with newline nl.
func renderJSON(v any, indent, unit, nl string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if unit != "" {
		enc.SetIndent(indent, unit)
	}
	enc.Encode(v) // strings, string slices and jsonObjects of them
	return strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), "\n", nl)
}

// jsonSet returns src, JSON with comments and trailing commas allowed,
// with the member at path set to val. A missing member is added at the
// end of its object, with any missing objects on the way; an existing
// one gets the new value. Everything else in src stays as it is:
// comments, key order, indentation.
func jsonSet(src []byte, path []string, val any) ([]byte, error) {
	root, err := hujson.Parse(src)
	if err != nil {
		return nil, err
	}
	unit, nl := indentUnit(src), newline(src)
	var out []byte
	cur := &root
	for i, key := range path {
		obj, ok := cur.Value.(*hujson.Object)
		if !ok {
			return nil, fmt.Errorf("%s is not an object", strings.Join(path[:i], "."))
		}
		var m *hujson.ObjectMember
		for j := range obj.Members { // the last of duplicates counts, as in JSON.parse
			if lit, ok := obj.Members[j].Name.Value.(hujson.Literal); ok && lit.String() == key {
				m = &obj.Members[j]
			}
		}
		if m == nil {
			v := val
			for j := len(path) - 1; j > i; j-- {
				v = jsonObject{{key: path[j], val: v}}
			}
			out = insertMember(src, cur, obj, key, v, unit, nl)
			break
		}
		if i == len(path)-1 {
			text := renderJSON(val, lineIndent(src, m.Name.StartOffset), unit, nl)
			out = splice(src, m.Value.StartOffset, m.Value.EndOffset, text)
			break
		}
		cur = &m.Value
	}
	// Check that the edit did exactly that.
	want, err := decodeJSON(src)
	if err != nil {
		return nil, err
	}
	setPath(want, path, normalize(val))
	got, err := decodeJSON(out)
	if err != nil || !reflect.DeepEqual(got, want) {
		return nil, fmt.Errorf("snap could not set %s in place (please report it, with the file)", strings.Join(path, "."))
	}
	return out, nil
}

// insertMember adds "key": v at the end of obj, the value at v in src.
func insertMember(src []byte, v *hujson.Value, obj *hujson.Object, key string, val any, unit, nl string) []byte {
	open, end := v.StartOffset, v.EndOffset-1 // at '{' and '}'
	name := renderJSON(key, "", "", "") + ": "
	if len(obj.Members) == 0 {
		indent := lineIndent(src, open) + unit
		member := name + renderJSON(val, indent, unit, nl)
		if len(bytes.TrimSpace(src[open+1:end])) == 0 {
			return splice(src, open+1, end, nl+indent+member+nl+lineIndent(src, open))
		}
		return splice(src, open+1, open+1, nl+indent+member) // before the comments
	}
	last := obj.Members[len(obj.Members)-1]
	if !bytes.Contains(src[open:last.Name.StartOffset], []byte("\n")) {
		// All on one line: keep it so.
		return splice(src, last.Value.EndOffset, last.Value.EndOffset, ", "+name+renderJSON(val, "", "", ""))
	}
	indent := lineIndent(src, last.Name.StartOffset)
	member := name + renderJSON(val, indent, unit, nl)
	// After the last value: a comma, a line comment, the end of the line?
	p := last.Value.EndOffset
	q := skipBlanks(src, p)
	comma := q < len(src) && src[q] == ','
	if comma {
		q = skipBlanks(src, q+1)
	}
	if bytes.HasPrefix(src[q:], []byte("//")) {
		if i := bytes.IndexByte(src[q:], '\n'); i >= 0 {
			q += i
		} else {
			q = len(src)
		}
		q = bytes.LastIndexFunc(src[:q], func(r rune) bool { return r != '\r' }) + 1
	}
	if q < len(src) && (src[q] == '\n' || src[q] == '\r') {
		tail := nl + indent + member
		if comma {
			tail += "," // as the file has it
		}
		out := splice(src, q, q, tail)
		if !comma {
			out = splice(out, p, p, ",")
		}
		return out
	}
	return splice(src, p, p, ","+nl+indent+member)
}

func splice(src []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(src)+len(text))
	out = append(out, src[:from]...)
	out = append(out, text...)
	return append(out, src[to:]...)
}

func skipBlanks(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// lineIndent is the indentation of the line holding offset.
func lineIndent(src []byte, offset int) string {
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	end := skipBlanks(src, start)
	return string(src[start:end])
}

// indentUnit is one level of indentation in src: the indentation of its
// first indented line, two spaces if none is.
func indentUnit(src []byte) string {
	for line := range bytes.Lines(src) {
		n := skipBlanks(line, 0)
		if n == 0 || n == len(bytes.TrimRight(line, "\r\n")) {
			continue
		}
		if line[0] == '\t' {
			return "\t"
		}
		if n <= 8 {
			return strings.Repeat(" ", n)
		}
		break
	}
	return "  "
}

func newline(src []byte) string {
	if bytes.Contains(src, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// setPath sets tree's member at path to val, making objects on the way.
func setPath(tree any, path []string, val any) {
	m, _ := tree.(map[string]any)
	for _, key := range path[:len(path)-1] {
		next, ok := m[key].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[key] = next
		}
		m = next
	}
	if m != nil {
		m[path[len(path)-1]] = val
	}
}

// editTOML sets server name in the table key of src, a TOML file.
func editTOML(src []byte, key, name string, entry []field, force bool) ([]byte, State, []Diff, error) {
	tree, err := decodeTOML(src)
	if err != nil {
		return nil, 0, nil, badFile(err)
	}
	servers := map[string]any{}
	if v, ok := tree[key]; ok {
		if servers, ok = v.(map[string]any); !ok {
			return nil, 0, nil, badFile(fmt.Errorf("%s is not a table", key))
		}
	}
	existing, ok := servers[name]
	nl := newline(src)
	table := fmt.Sprintf("[%s.%s]%s", key, name, nl)
	for _, f := range entry {
		table += tomlLine(f) + nl
	}
	var out []byte
	state := Added
	var diffs []Diff
	if !ok {
		out = bytes.Clone(src)
		if len(src) > 0 && !bytes.HasSuffix(src, []byte("\n")) {
			out = append(out, nl...)
		}
		if len(bytes.TrimSpace(src)) > 0 {
			out = append(out, nl...)
		}
		out = append(out, table...)
	} else {
		diffs = entryDiffs(existing, entry)
		switch {
		case len(diffs) == 0:
			return src, Same, nil, nil
		case !force:
			return src, Differs, diffs, nil
		}
		state = Updated
		m, _ := existing.(map[string]any)
		var set []field
		for _, f := range entry {
			if got, has := m[f.key]; !has || !reflect.DeepEqual(normalize(got), normalize(f.val)) {
				set = append(set, f)
			}
		}
		if out, err = tomlSet(src, []string{key, name}, set); err != nil {
			return nil, 0, nil, err
		}
	}
	// Check that the edit did exactly that.
	want := normalize(tree).(map[string]any)
	for _, f := range entry {
		setPath(want, []string{key, name, f.key}, normalize(f.val))
	}
	got, err := decodeTOML(out)
	if err != nil || !reflect.DeepEqual(normalize(got), want) {
		return nil, 0, nil, fmt.Errorf("snap cannot add [%s.%s] to this file (is %s an inline table?); add it by hand:\n%s", key, name, key, table)
	}
	return out, state, diffs, nil
}

func decodeTOML(src []byte) (map[string]any, error) {
	tree := map[string]any{}
	if err := toml.Unmarshal(src, &tree); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("line %d, column %d: %v", row, col, err)
		}
		return nil, err
	}
	return tree, nil
}

// tomlLine is f as a TOML key/value line, without its newline.
func tomlLine(f field) string {
	b, err := toml.Marshal(map[string]any{f.key: f.val})
	if err != nil {
		panic(err) // strings and string slices always marshal
	}
	return strings.TrimSuffix(string(b), "\n")
}

// tomlSet returns src with the keys of fields set in the table [table...]:
// a key's line is replaced, a missing key is added after the table's last
// one. The table must be written as a [table] header.
func tomlSet(src []byte, table []string, fields []field) ([]byte, error) {
	var p unstable.Parser
	p.Reset(src)
	found, end := false, 0       // end: where the table's last line ends
	lines := map[string][2]int{} // the key/value lines of the fields
scan:
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			if found {
				break scan
			}
			it := e.Key()
			if e.Kind == unstable.Table && slices.Equal(keyParts(it), table) {
				found = true
				it = e.Key()
				it.Next()
				end = lineEnd(src, int(it.Node().Raw.Offset))
			}
		case unstable.KeyValue:
			if !found {
				continue
			}
			if k := keyParts(e.Key()); len(k) == 1 {
				lines[k[0]] = [2]int{int(e.Raw.Offset), int(e.Raw.Offset + e.Raw.Length)}
			}
			end = lineEnd(src, int(e.Raw.Offset+e.Raw.Length))
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("[%s] is written in a way snap does not edit (inline or with dotted keys); write it as a [%s] table",
			strings.Join(table, "."), strings.Join(table, "."))
	}
	nl := newline(src)
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	var add strings.Builder
	for _, f := range fields {
		if r, ok := lines[f.key]; ok {
			edits = append(edits, edit{r[0], r[1], tomlLine(f)})
		} else {
			add.WriteString(tomlLine(f) + nl)
		}
	}
	if add.Len() > 0 {
		text := add.String()
		if end == len(src) && !bytes.HasSuffix(src, []byte("\n")) {
			text = nl + text
		}
		edits = append(edits, edit{end, end, text})
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.from - a.from })
	out := src
	for _, e := range edits {
		out = splice(out, e.from, e.to, e.text)
	}
	return out, nil
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// lineEnd is the offset of the line after the one holding offset.
func lineEnd(src []byte, offset int) int {
	if i := bytes.IndexByte(src[offset:], '\n'); i >= 0 {
		return offset + i + 1
	}
	return len(src)
}

// replaceFile replaces the file at path, whose content was old (when it
// existed), with data: written beside it, synced, then renamed over it.
// A file that is a symbolic link has its target replaced. An existing
// file keeps its mode; a new one gets perm, in folders made with dirPerm.
func replaceFile(path string, old []byte, existed bool, data []byte, perm, dirPerm fs.FileMode) error {
	if existed {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return err
		}
		fi, err := os.Stat(real)
		if err != nil {
			return err
		}
		path, perm = real, fi.Mode().Perm()
	} else if err := os.MkdirAll(filepath.Dir(path), dirPerm); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".snap-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename, there is nothing to remove
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// Someone (the client itself) may have written the file meanwhile.
	now, err := os.ReadFile(path)
	switch {
	case existed && (err != nil || !bytes.Equal(now, old)), !existed && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s changed while snap was editing it; nothing was changed, run setup again", path)
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // not supported everywhere (Windows); the rename is done
		d.Close()
	}
	return nil
}
