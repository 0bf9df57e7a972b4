package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
)

func queryCommand() *cli.Command {
	return &cli.Command{
		Name:      "query",
		Usage:     "call an MCP tool from the shell",
		ArgsUsage: "TOOL [--ARG VALUE ...]",
		Description: "Calls one tool of the MCP catalog on the newest local snapshot (or the one\n" +
			"--snapshot names), through the same code path as `snap serve`. TOOL may omit\n" +
			"the snap_ prefix. Tool arguments are given as --name value; their types come\n" +
			"from the tool's input schema. The answer is printed as indented JSON, or as one\n" +
			"line with --json. `snap query --list` lists the tools and their arguments.\n\n" +
			"Options: --snapshot FOLDER, --store URL, --repo NAME, --branch BRANCH, --json, --list\n\n" +
			"Examples:\n" +
			"  snap query status\n" +
			"  snap query callers --name Serve --file net/http/server.go\n" +
			"  snap query impact --id 1234567890 --depth 2 --json",
		SkipFlagParsing: true,
		Flags:           snapshotFlags(),
		Action: func(c *cli.Context) error {
			return runQuery(c)
		},
	}
}

// queryOpts are the options of `snap query` that are not tool arguments.
var queryOpts = map[string]bool{"snapshot": true, "store": true, "repo": true, "branch": true}

func runQuery(c *cli.Context) error {
	args := c.Args().Slice()
	var tool string
	toolArgs := make(map[string]string)
	var order []string
	opts := make(map[string]string)
	compact, list := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			if tool != "" {
				return usagef("query: unexpected argument %q (tool arguments are --name value)", a)
			}
			tool = a
			continue
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		switch name {
		case "json":
			compact = true
			continue
		case "list":
			list = true
			continue
		case "help", "h":
			return cli.ShowCommandHelp(c, "query")
		}
		if !hasVal {
			if i+1 >= len(args) {
				return usagef("query: --%s needs a value", name)
			}
			i++
			val = args[i]
		}
		if queryOpts[name] {
			opts[name] = val
			continue
		}
		if _, dup := toolArgs[name]; !dup {
			order = append(order, name)
		}
		toolArgs[name] = val
	}
	reg, err := mcp.NewRegistry(&query.Holder{})
	if err != nil {
		return err
	}
	if list {
		for _, t := range reg.Tools() {
			fmt.Fprintf(c.App.Writer, "%-24s %s\n", t.Name, strings.Join(argNames(t), " "))
		}
		return nil
	}
	if tool == "" {
		return usagef("query: name a tool (snap query --list shows them)")
	}
	if !strings.HasPrefix(tool, "snap_") {
		tool = "snap_" + tool
	}
	t, ok := reg.Tool(tool)
	if !ok {
		return usagef("query: unknown tool %q (snap query --list shows them)", tool)
	}
	raw, err := toolArguments(t, order, toolArgs)
	if err != nil {
		return err
	}
	for name, val := range opts {
		if err := c.Set(name, val); err != nil {
			return usagef("query: --%s: %v", name, err)
		}
	}
	e, _, _, err := loadEngine(c.Context, c)
	if err != nil {
		return err
	}
	h := &query.Holder{}
	h.Store(e)
	reg, err = mcp.NewRegistry(h)
	if err != nil {
		return err
	}
	out, isError := reg.CallJSON(c.Context, tool, raw)
	if !compact {
		var buf bytes.Buffer
		if json.Indent(&buf, out, "", "  ") == nil {
			out = buf.Bytes()
		}
	}
	fmt.Fprintf(c.App.Writer, "%s\n", out)
	if isError {
		return fmt.Errorf("%s answered with an error", tool)
	}
	return nil
}

// schemaProps reads the property types of a tool's input schema.
func schemaProps(t *mcp.Tool) map[string][]string {
	var s struct {
		Properties map[string]struct {
			Type  json.RawMessage `json:"type"`
			AnyOf []struct {
				Type string `json:"type"`
			} `json:"anyOf"`
			OneOf []struct {
				Type string `json:"type"`
			} `json:"oneOf"`
		} `json:"properties"`
	}
	json.Unmarshal(t.InputSchema, &s)
	out := make(map[string][]string)
	for name, p := range s.Properties {
		var types []string
		var one string
		if json.Unmarshal(p.Type, &one) == nil && one != "" {
			types = append(types, one)
		} else {
			json.Unmarshal(p.Type, &types)
		}
		for _, a := range append(p.AnyOf, p.OneOf...) {
			types = append(types, a.Type)
		}
		out[name] = types
	}
	return out
}

func argNames(t *mcp.Tool) []string {
	props := schemaProps(t)
	var names []string
	for name, types := range props {
		names = append(names, "--"+name+"="+strings.Join(types, "|"))
	}
	sortStrings(names)
	return names
}

// toolArguments turns --name value pairs into the tool's JSON arguments,
// typed by its input schema. An argument the schema does not know is
// passed on as a string, for the tool to refuse with its own message.
func toolArguments(t *mcp.Tool, order []string, vals map[string]string) (json.RawMessage, error) {
	props := schemaProps(t)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range order {
		val := vals[name]
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		types := props[name]
		has := func(typ string) bool {
			for _, x := range types {
				if x == typ {
					return true
				}
			}
			return false
		}
		switch {
		case (has("integer") || has("number")) && isNumber(val):
			b.WriteString(val)
		case has("boolean") && !has("string"):
			v, err := strconv.ParseBool(val)
			if err != nil {
				return nil, usagef("query: --%s wants true or false, got %q", name, val)
			}
			b.WriteString(strconv.FormatBool(v))
		case has("array") && !has("string"):
			if strings.HasPrefix(strings.TrimSpace(val), "[") {
				if !json.Valid([]byte(val)) {
					return nil, usagef("query: --%s: not a JSON array: %s", name, val)
				}
				b.WriteString(val)
				break
			}
			parts := strings.Split(val, ",")
			enc, _ := json.Marshal(parts)
			b.Write(enc)
		case has("string") || len(types) == 0:
			enc, _ := json.Marshal(val)
			b.Write(enc)
		default:
			if !json.Valid([]byte(val)) {
				enc, _ := json.Marshal(val)
				b.Write(enc)
				break
			}
			b.WriteString(val)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func isNumber(s string) bool {
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil
}
