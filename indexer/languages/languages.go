// Package languages lists every language the indexer knows.
package languages

import (
	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/python"
)

// All returns a fresh instance of every language.
func All() []indexer.Language {
	return []indexer.Language{golang.New(), python.New()}
}
