// Package cpp indexes C++ source (.cc .cpp .cxx .c++ and headers .hh .hpp
// .hxx .h++ .ipp .tpp, and the .h headers of the folders whose sources
// are mostly C++, see cfamily.CppHeader). Extraction and resolution are
// those of package cfamily, which C++ shares with C (package c): the two
// resolve together, so C++ calls into C functions resolve.
package cpp

import (
	tree_sitter_cpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/cfamily"
)

// Name is the language name written in tables.
const Name = "cpp"

// grammarVersion is the module version of tree-sitter-cpp in go.mod.
const grammarVersion = "v0.23.4"

// New returns the C++ language.
func New() indexer.Language {
	return cfamily.New(cfamily.Config{
		Name: Name, Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".h", ".ipp", ".tpp", ".inl"},
		Grammar: tree_sitter_cpp.Language(), Version: grammarVersion, Cpp: true,
	})
}
