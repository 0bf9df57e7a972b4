package indexer

import (
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/graphsnap/snap/schemas"
)

// fakeLang claims extensions, and, when claim is set, the files of a tree
// for which claim says so.
type fakeLang struct {
	name  string
	exts  []string
	claim func(t *Tree, name string) bool
}

func (l fakeLang) Name() string                          { return l.name }
func (l fakeLang) Extensions() []string                  { return l.exts }
func (l fakeLang) Grammar() *sitter.Language             { return nil }
func (l fakeLang) GrammarVersion() string                { return "" }
func (l fakeLang) NewExtractor(*Tree) (Extractor, error) { return nil, nil }
func (l fakeLang) Resolve([]schemas.Node, []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	return nil, nil
}

type claimingLang struct{ fakeLang }

func (l claimingLang) Claims(t *Tree, name string) bool { return l.claim(t, name) }

func TestLanguageForSharedExtension(t *testing.T) {
	c := fakeLang{name: "c", exts: []string{".c", ".h"}}
	cpp := claimingLang{fakeLang{name: "cpp", exts: []string{".cc", ".h"}, claim: func(t *Tree, _ string) bool {
		for p := range t.Paths {
			if strings.HasSuffix(p, ".cc") {
				return true
			}
		}
		return false
	}}}
	langs := []Language{c, cpp}
	plain := &Tree{Paths: map[string]bool{"a.c": true, "a.h": true}}
	mixed := &Tree{Paths: map[string]bool{"a.cc": true, "a.h": true}}
	for _, tc := range []struct {
		tree *Tree
		name string
		want string
	}{
		{plain, "a.h", "c"},
		{mixed, "a.h", "cpp"},
		{mixed, "a.cc", "cpp"},
		{plain, "a.c", "c"},
		{nil, "a.h", "c"},
		{plain, "Makefile", ""},
		{plain, "a.go", ""},
	} {
		got := ""
		if l := LanguageFor(langs, tc.tree, tc.name); l != nil {
			got = l.Name()
		}
		if got != tc.want {
			t.Errorf("LanguageFor(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// recordingLang counts the calls of its resolver.
type recordingLang struct {
	fakeLang
	calls  *int
	family string
}

func (l recordingLang) Resolve([]schemas.Node, []schemas.Ref) ([]schemas.Node, []schemas.Edge) {
	*l.calls++
	return nil, nil
}

type familyLang struct{ recordingLang }

func (l familyLang) Family() string { return l.family }

// TestResolveSkipsAbsentLanguages: a language none of whose files the
// tree holds, and that has no refs, is not resolved; one of a family is,
// when another member has files.
func TestResolveSkipsAbsentLanguages(t *testing.T) {
	var goCalls, kotlinCalls, tsCalls, luaCalls int
	// Pointers: a Language is a map key.
	golang := &recordingLang{fakeLang: fakeLang{name: "go"}, calls: &goCalls}
	kotlin := &recordingLang{fakeLang: fakeLang{name: "kotlin"}, calls: &kotlinCalls}
	ts := &familyLang{recordingLang{fakeLang: fakeLang{name: "typescript"}, calls: &tsCalls, family: "js"}}
	js := &familyLang{recordingLang{fakeLang: fakeLang{name: "javascript"}, calls: new(int), family: "js"}}
	lua := &recordingLang{fakeLang: fakeLang{name: "lua"}, calls: &luaCalls}
	langs := []Language{golang, kotlin, ts, js, lua}
	refs := map[Language][]schemas.Ref{lua: {{File: "x.lua", Kind: schemas.EdgeCalls}}}
	files := map[string]bool{"go": true, "javascript": true}
	resolve(nil, langs, refs, func(l Language) bool { return files[l.Name()] }, nil)
	if goCalls != 1 || kotlinCalls != 0 || tsCalls != 1 || luaCalls != 1 {
		t.Errorf("resolvers called: go %d, kotlin %d, typescript (leader of javascript) %d, lua (refs, no files) %d; want 1, 0, 1, 1",
			goCalls, kotlinCalls, tsCalls, luaCalls)
	}
	resolve(nil, langs, refs, nil, nil)
	if kotlinCalls != 1 {
		t.Errorf("without presence, kotlin resolved %d times, want 1", kotlinCalls)
	}
}
