// Package languages lists every language the indexer knows.
package languages

import (
	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/bash"
	"github.com/graphsnap/snap/indexer/c"
	"github.com/graphsnap/snap/indexer/cpp"
	"github.com/graphsnap/snap/indexer/csharp"
	"github.com/graphsnap/snap/indexer/golang"
	"github.com/graphsnap/snap/indexer/java"
	"github.com/graphsnap/snap/indexer/kotlin"
	"github.com/graphsnap/snap/indexer/lua"
	"github.com/graphsnap/snap/indexer/php"
	"github.com/graphsnap/snap/indexer/python"
	"github.com/graphsnap/snap/indexer/ruby"
	"github.com/graphsnap/snap/indexer/rust"
	"github.com/graphsnap/snap/indexer/scala"
	"github.com/graphsnap/snap/indexer/swift"
	"github.com/graphsnap/snap/indexer/typescript"
)

// All returns a fresh instance of every language.
func All() []indexer.Language {
	return append([]indexer.Language{golang.New(), python.New(), rust.New(), java.New(), kotlin.New(), scala.New(), swift.New(), csharp.New(), c.New(), cpp.New(), php.New(), ruby.New(), lua.New(), bash.New()}, typescript.All()...)
}
