package indexer

import (
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// LanguageInfo is what a Language says of itself: its name, the file
// extensions it claims and its grammar. A Language embeds a pointer to
// it for its Name, Extensions, Grammar and GrammarVersion methods (a
// pointer: the indexer keys maps by Language).
type LanguageInfo struct {
	name, version string
	exts          []string
	grammar       func() *sitter.Language
}

// NewLanguageInfo returns the LanguageInfo of the language name, which
// claims exts and parses with grammar (the grammar module's Language),
// of the module version version in go.mod.
func NewLanguageInfo(name string, exts []string, version string, grammar func() unsafe.Pointer) *LanguageInfo {
	return &LanguageInfo{name: name, version: version, exts: exts,
		grammar: sync.OnceValue(func() *sitter.Language { return sitter.NewLanguage(grammar()) })}
}

// Name is Language.Name.
func (l *LanguageInfo) Name() string { return l.name }

// Extensions is Language.Extensions.
func (l *LanguageInfo) Extensions() []string { return l.exts }

// Grammar is Language.Grammar.
func (l *LanguageInfo) Grammar() *sitter.Language { return l.grammar() }

// GrammarVersion is Language.GrammarVersion.
func (l *LanguageInfo) GrammarVersion() string { return l.version }
