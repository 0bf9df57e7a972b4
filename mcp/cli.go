package mcp

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// ParseArgs turns command-line arguments (`snap query TOOL --name Serve
// --limit 5 --kinds calls,references`) into the JSON object Handler takes,
// typing each value by the tool's input schema: integers and booleans
// parsed ("--include_body" alone is true), arrays split at commas and
// repeatable, ids kept as strings. Arguments the tool does not take pass
// through as strings, for Call to refuse with the usual error.
func (t *Tool) ParseArgs(args map[string][]string) (json.RawMessage, *ToolError) {
	out := map[string]any{}
	for name, values := range args {
		p := t.schema.Properties[name]
		if p == nil {
			out[name] = strings.Join(values, ",")
			continue
		}
		last := ""
		if len(values) > 0 {
			last = values[len(values)-1]
		}
		switch types := append([]string{p.Type}, p.Types...); {
		case slices.Contains(types, "array"):
			list := []string{}
			for _, v := range values {
				for s := range strings.SplitSeq(v, ",") {
					if s = strings.TrimSpace(s); s != "" {
						list = append(list, s)
					}
				}
			}
			out[name] = list
		case slices.Contains(types, "boolean"):
			if last == "" {
				out[name] = true
				break
			}
			b, err := strconv.ParseBool(last)
			if err != nil {
				return nil, argErr(name, "want boolean, got %q", last)
			}
			out[name] = b
		case slices.Contains(types, "integer") && !slices.Contains(types, "string"):
			n, err := strconv.Atoi(last)
			if err != nil {
				return nil, argErr(name, "want integer, got %q", last)
			}
			out[name] = n
		default:
			out[name] = last
		}
	}
	return encode(out), nil
}
