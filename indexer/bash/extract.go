package bash

import (
	"context"
	_ "embed"
	"path"
	"strings"

	"github.com/cespare/xxhash/v2"
	tree_sitter_bash "github.com/tree-sitter/tree-sitter-bash/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

//go:embed query.scm
var querySource string

// kind is what a main capture of query.scm stands for, containers first.
type kind uint8

const (
	kFunc kind = iota
	kVar
	kDecl
	kLoop
	kCond
	kCmd
	kDoc
	numKinds
)

var kindNames = [numKinds]string{"func", "var", "decl", "loop", "cond", "cmd", "doc"}

// rArg is the slot of a command's first argument, bash's own role after
// those that indexer.Roles names.
const rArg = indexer.NumSharedRoles

var roleSlots = indexer.Roles(map[string]int{"arg": rArg})

// compiled returns the query, compiled once and shared by every extractor.
var compiled = indexer.CompileOnce[kind](Name, tree_sitter_bash.Language, querySource, kindNames[:], roleSlots)

type span = indexer.Span

// frame is a function or region the walk is inside of.
type frame struct {
	kind kind
	end  uint32
	node int32
}

// extract makes the nodes and refs of one scanned file.
func extract(ctx context.Context, f *indexer.Scanned[kind]) ([]schemas.Node, []schemas.Ref, bool) {
	file, src, items, lines := f.Path, f.Src, f.Items, f.Lines
	str := string(src)
	test := isTestFile(file)
	ids := indexer.IDs{Language: Name, File: file}
	var nodes []schemas.Node
	var refs []schemas.Ref
	text := func(s span) string { return str[s.Start:s.End] }
	addNode := func(kind, name string, parent int32, s span) *schemas.Node {
		parentID := indexer.FileID(file)
		if parent >= 0 {
			parentID = nodes[parent].ID
		}
		for s.End > s.Start && (src[s.End-1] == '\n' || src[s.End-1] == ' ' || src[s.End-1] == '\t' || src[s.End-1] == '\r') {
			s.End--
		}
		sl, sc := srctext.Pos(lines, s.Start)
		el, ec := srctext.Pos(lines, s.End)
		nodes = append(nodes, schemas.Node{
			ID: ids.Next(kind, name), Kind: kind, Name: name, QualifiedName: name, Language: Name, File: file,
			StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec, StartByte: s.Start, EndByte: s.End,
			ParentID: parentID, Visibility: schemas.Public, BodyHash: xxhash.Sum64String(text(s)),
		})
		return &nodes[len(nodes)-1]
	}
	// Doc comments and the variables that hold the script's folder.
	docs := map[uint32]string{}
	dirVars := map[string]bool{}
	var doc []string
	var docStart, docEnd uint32
	for i := range items {
		if indexer.Stopped(ctx, i) {
			return nil, nil, false
		}
		it := &items[i]
		switch it.Kind {
		case kDoc:
			t := text(it.Span)
			if strings.HasPrefix(t, "#!") {
				continue
			}
			if len(doc) > 0 && !onlyNewline(str[docEnd:it.Start]) {
				doc = doc[:0]
			}
			if len(doc) == 0 {
				docStart = it.Start
			}
			doc = append(doc, strings.TrimSpace(strings.TrimPrefix(t, "#")))
			docEnd = it.End
		case kFunc:
			if len(doc) > 0 && onlyNewline(str[docEnd:it.Start]) && docStart < it.Start {
				docs[it.Start] = strings.Join(doc, "\n")
			}
			doc = doc[:0]
		case kVar, kDecl:
			if v := text(it.Span); it.HasRole(indexer.RoleName) && isScriptDir(strings.TrimSpace(v[strings.IndexByte(v, '=')+1:])) {
				dirVars[text(it.Role[indexer.RoleName])] = true
			}
		}
	}
	var stack []frame
	seen := map[string]bool{}
	for i := range items {
		if indexer.Stopped(ctx, i) {
			return nil, nil, false
		}
		it := &items[i]
		for len(stack) > 0 && stack[len(stack)-1].end <= it.Start {
			stack = stack[:len(stack)-1]
		}
		fn := int32(-1)
		var loop, cond bool
		for j := len(stack) - 1; j >= 0; j-- {
			switch stack[j].kind {
			case kLoop:
				loop = loop || fn < 0
			case kCond:
				cond = cond || fn < 0
			case kFunc:
				if fn < 0 {
					fn = stack[j].node
				}
			}
		}
		switch it.Kind {
		case kFunc:
			name := text(it.Role[indexer.RoleName])
			n := addNode(schemas.KindFunction, name, fn, it.Span)
			n.Exported = true
			n.Doc = docs[it.Start]
			n.Signature = oneLine(strings.TrimSpace(str[it.Start:it.Role[indexer.RoleBody].Start]))
			n.BodyHash = xxhash.Sum64String(text(it.Role[indexer.RoleBody]))
			n.IsTest = test && strings.HasPrefix(name, "test")
			stack = append(stack, frame{kFunc, it.End, int32(len(nodes) - 1)})
		case kLoop, kCond:
			stack = append(stack, frame{it.Kind, it.End, -1})
		case kVar, kDecl:
			name := text(it.Role[indexer.RoleName])
			t := text(it.Span)
			word := t[:strings.IndexAny(t+" ", " \t=")]
			kind, exported := schemas.KindVariable, false
			if it.Kind == kDecl {
				flags := declFlags(t)
				switch {
				case word == "local":
					continue
				case word == "export":
					exported = true
				case word == "readonly":
					kind = schemas.KindConstant
				}
				if strings.Contains(flags, "r") {
					kind = schemas.KindConstant
				}
				if strings.Contains(flags, "x") {
					exported = true
				}
			}
			if seen[name] {
				continue // an assignment, not a declaration
			}
			seen[name] = true
			n := addNode(kind, name, -1, it.Span)
			n.Exported = exported
			n.Signature = srctext.Cap(oneLine(t), 200)
		case kCmd:
			name := text(it.Role[indexer.RoleName])
			at := it.Role[indexer.RoleName]
			line, col := srctext.Pos(lines, at.Start)
			src := indexer.FileID(file)
			if fn >= 0 {
				src = nodes[fn].ID
			}
			if name == "source" || name == "." {
				if !it.HasRole(rArg) {
					continue
				}
				arg := text(it.Role[rArg])
				refs = append(refs, schemas.Ref{File: file, Src: indexer.FileID(file), Kind: schemas.EdgeImports,
					Target: srctext.Cap(oneLine(name+" "+arg), 200), Expr: sourceExpr(file, arg, dirVars), Line: line, Col: col})
				continue
			}
			if builtins[name] || !isCommandName(name) {
				continue
			}
			r := schemas.Ref{File: file, Src: src, Kind: schemas.EdgeCalls, Target: name, Expr: name, Line: line, Col: col,
				InLoop: loop, Conditional: cond}
			if it.Role[rArg].End > 0 {
				r.Args = srctext.Cap(oneLine(str[it.Role[indexer.RoleName].End:it.End]), 200)
				r.Args = strings.TrimSpace(r.Args)
			}
			refs = append(refs, r)
		}
	}
	return nodes, refs, test
}

// isTestFile reports whether file holds tests: under a test or tests
// folder, or named *_test.sh, *_test.bash or test_*.
func isTestFile(file string) bool {
	base := path.Base(file)
	stem := strings.TrimSuffix(strings.TrimSuffix(base, ".sh"), ".bash")
	return strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_") || indexer.InFolder(file, "test", "tests")
}

// declFlags returns the option letters of a declare, typeset, export or
// readonly command.
func declFlags(t string) string {
	var b strings.Builder
	for _, w := range strings.Fields(t)[1:] {
		if !strings.HasPrefix(w, "-") {
			break
		}
		b.WriteString(w[1:])
	}
	return b.String()
}

// sourceExpr returns the Expr of the file a source command reads: "file "
// and the candidate paths, |-separated, relative to the root of the tree;
// or ?dynamic, ?absolute, ?outside.
func sourceExpr(file, arg string, dirVars map[string]bool) string {
	a := strings.NewReplacer(`"`, "", `'`, "").Replace(arg)
	dir := path.Dir(file)
	if strings.HasPrefix(a, "$") {
		end := prefixEnd(a)
		head := a[:end]
		name := strings.Trim(head, "${}")
		if !isScriptDir(head) && !dirVars[name] {
			return "?dynamic"
		}
		a = strings.TrimPrefix(a[end:], "/")
		if strings.Contains(a, "$") || a == "" {
			return "?dynamic"
		}
		return "file " + inTree(path.Join(dir, a))
	}
	switch {
	case strings.ContainsAny(a, "$`*?~") || a == "":
		return "?dynamic"
	case strings.HasPrefix(a, "/"):
		return "?absolute"
	}
	// Bash reads a relative path from the working directory: the script's
	// folder or the root of the tree, most often.
	first, second := inTree(path.Join(dir, a)), inTree(path.Clean(a))
	if first == second || second == "?outside" {
		return "file " + first
	}
	if first == "?outside" {
		return "file " + second
	}
	return "file " + first + "|" + second
}

func inTree(p string) string {
	if p == ".." || strings.HasPrefix(p, "../") {
		return "?outside"
	}
	return p
}

// prefixEnd returns where the expansion at the start of a ends: $(…),
// ${…} or $name.
func prefixEnd(a string) int {
	if len(a) < 2 {
		return len(a)
	}
	switch a[1] {
	case '(', '{':
		open, close := a[1], byte(')')
		if open == '{' {
			close = '}'
		}
		if i := indexer.Closing(a[1:], open, close); i >= 0 {
			return 1 + i + 1
		}
		return len(a)
	}
	i := 1
	for i < len(a) && (a[i] == '_' || a[i] >= 'a' && a[i] <= 'z' || a[i] >= 'A' && a[i] <= 'Z' || a[i] >= '0' && a[i] <= '9') {
		i++
	}
	return i
}

// isScriptDir reports whether the expansion e is the script's folder:
// $(dirname "$0"), $(dirname "${BASH_SOURCE[0]}"), ${BASH_SOURCE%/*},
// $(cd "$(dirname "$0")" && pwd) and the like.
func isScriptDir(e string) bool {
	e = strings.NewReplacer(`"`, "", `'`, "").Replace(e)
	self := strings.Contains(e, "BASH_SOURCE") || strings.Contains(e, "$0") || strings.Contains(e, "${0")
	if !self || !strings.HasPrefix(e, "$") {
		return false
	}
	if strings.Contains(e, "dirname") {
		return !strings.Contains(e, "/..") && strings.Count(e, "dirname") == 1
	}
	return strings.HasSuffix(e, "%/*}")
}

func onlyNewline(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			if n++; n > 1 {
				return false
			}
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// oneLine folds runs of white space into one space (srctext.Fold).
func oneLine(s string) string { return srctext.Fold(s) }

// isCommandName reports whether s can name a function: no expansion, no
// path, no quoting.
func isCommandName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '$' || c == '/' || c == '"' || c == '\'' || c == '`' || c == '=' || c == '\\' || c == ' ':
			return false
		}
	}
	return true
}

// builtins are Bash's builtin commands and keywords: never functions'
// calls.
var builtins = map[string]bool{}

func init() {
	for _, b := range strings.Fields(`. : [ [[ alias bg bind break builtin caller cd command compgen complete
		compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help
		history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set
		shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait`) {
		builtins[b] = true
	}
}
