package ci

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/graphsnap/snap/indexer"
)

// IndexOptions returns the indexer's options of `snap index ARGS` (or
// `snap ci`, which takes no indexing flags): what the overlay must index
// the checkout with to agree with the snapshot.
func IndexOptions(args []string) (indexer.Options, error) {
	var opts indexer.Options
	var langs []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") {
			continue
		}
		next := func() string {
			if hasValue {
				return value
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch name {
		case "exclude":
			opts.Exclude = append(opts.Exclude, strings.Split(next(), ",")...)
		case "languages":
			langs = append(langs, strings.Split(next(), ",")...)
		case "vendored":
			opts.Vendored = !hasValue || value == "true"
		case "generated":
			opts.SkipGenerated = hasValue && value != "true"
		case "no-generated":
			opts.SkipGenerated = !hasValue || value == "true"
		case "minified":
			opts.Minified = !hasValue || value == "true"
		case "derived":
			opts.Derived = !hasValue || value == "true"
		case "no-sources":
			opts.NoSources = !hasValue || value == "true"
		case "max-file-size":
			n, err := strconv.ParseInt(next(), 10, 64)
			if err != nil {
				return opts, fmt.Errorf("--max-file-size: %w", err)
			}
			opts.MaxFileSize = n
		case "max-file-time":
			d, err := time.ParseDuration(next())
			if err != nil {
				return opts, fmt.Errorf("--max-file-time: %w", err)
			}
			opts.MaxFileTime = cmp.Or(d, -1) // 0 on the command line is no limit
		case "store", "repo", "branch", "base", "workers":
			next()
		}
	}
	var err error
	opts.Languages, err = Languages(langs)
	return opts, err
}
