// Command answers measures what an agent receives from snap serve: it
// asks a fixed battery of typical questions about real repositories over
// the MCP protocol (a real client, real stdio pipes), and reports the
// tokens (bytes ÷ 4) of tools/list per toolset and of each answer, beside
// the same questions asked of a peer MCP server where it has a tool for
// them.
//
//	go run ./bench/answers -snap bin/snap -repos go=/tmp/br/cobra,python=/tmp/br/requests \
//	    [-peer /path/to/codegraph] [-o report.md]
//
// Each repository must be indexed already (snap index; the peer's own
// index for the peer), at the commit the battery names.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func main() {
	snapBin := flag.String("snap", "bin/snap", "the snap binary")
	peerBin := flag.String("peer", "", "a peer MCP server's binary (codegraph); empty: snap alone")
	repos := flag.String("repos", "", "comma-separated battery=folder pairs; batteries: "+strings.Join(batteryNames(), ", "))
	out := flag.String("o", "", "also write the report to this file")
	flag.Parse()
	if *repos == "" {
		fmt.Fprintln(os.Stderr, "answers: -repos is required: battery=folder pairs, e.g. -repos go=/tmp/br/cobra")
		os.Exit(2)
	}
	var runs []run
	for _, pair := range strings.Split(*repos, ",") {
		name, dir, ok := strings.Cut(pair, "=")
		b, known := batteries[name]
		if !ok || !known {
			fmt.Fprintf(os.Stderr, "answers: %q: want battery=folder with a battery of %s\n", pair, strings.Join(batteryNames(), ", "))
			os.Exit(2)
		}
		runs = append(runs, run{name: name, dir: dir, battery: b})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	var w io.Writer = os.Stdout
	var buf strings.Builder
	if *out != "" {
		w = io.MultiWriter(os.Stdout, &buf)
	}
	if err := report(ctx, w, *snapBin, *peerBin, runs); err != nil {
		fmt.Fprintln(os.Stderr, "answers:", err)
		os.Exit(1)
	}
	if *out != "" {
		if err := os.WriteFile(*out, []byte(buf.String()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "answers:", err)
			os.Exit(1)
		}
	}
}

type run struct {
	name, dir string
	battery   battery
}

// report asks every run's battery and writes the Markdown report.
func report(ctx context.Context, w io.Writer, snapBin, peerBin string, runs []run) error {
	if len(runs) == 0 {
		return errors.New("no repositories")
	}
	fmt.Fprintf(w, "## tools/list\n\nTokens (bytes ÷ 4) of the tools a server lists: name, description and input schema; `+out` is all of tools/list (titles, annotations, output schemas too).\n\n")
	fmt.Fprintf(w, "| server | toolsets | tools | tokens | +out |\n|---|---|---:|---:|---:|\n")
	for _, ts := range []string{"", "all"} {
		c, err := start(ctx, snapBin, runs[0].dir, nil, serveArgs(ts)...)
		if err != nil {
			return err
		}
		n, in, full, err := catalog(ctx, c)
		c.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "| snap | %s | %d | %d | %d |\n", cmp.Or(ts, "default"), n, in, full)
	}
	if peerBin != "" {
		c, err := start(ctx, peerBin, runs[0].dir, peerEnv(""), "serve", "--mcp")
		if err != nil {
			return err
		}
		n, in, full, err := catalog(ctx, c)
		c.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "| peer | default | %d | %d | %d |\n", n, in, full)
	}

	var total, peerTotal, peerShared, snapShared int
	failed := false
	for _, r := range runs {
		fmt.Fprintf(w, "\n## %s (%s)\n\n| question | snap tool | snap tokens | peer tool | peer tokens |\n|---|---|---:|---|---:|\n", r.name, r.battery.repo)
		snap, err := start(ctx, snapBin, r.dir, nil, serveArgs("all")...)
		if err != nil {
			return err
		}
		var peer *client.Client
		if peerBin != "" {
			if peer, err = start(ctx, peerBin, r.dir, peerEnv(peerTools), "serve", "--mcp"); err != nil {
				snap.Close()
				return err
			}
		}
		var sum, psum int
		for _, q := range r.battery.questions {
			st, err := ask(ctx, snap, q.tool, q.args)
			scell := fmt.Sprint(st)
			if err != nil {
				fmt.Fprintf(os.Stderr, "answers: %s: %s: %v\n", r.name, q.label, err)
				scell, failed = "error", true
			}
			sum += st
			pcell, ptok := "—", "—"
			if peer != nil && q.peerTool != "" {
				pt, err := ask(ctx, peer, q.peerTool, q.peerArgs)
				if err != nil {
					pcell = q.peerTool + " (error)"
				} else {
					pcell, ptok = q.peerTool, fmt.Sprint(pt)
					psum += pt
					peerShared += pt
					snapShared += st
				}
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", q.label, q.tool, scell, pcell, ptok)
		}
		snap.Close()
		if peer != nil {
			peer.Close()
		}
		fmt.Fprintf(w, "| **all** | | **%d** | | **%d** |\n", sum, psum)
		total += sum
		peerTotal += psum
	}
	fmt.Fprintf(w, "\nAll questions: snap %d tokens", total)
	if peerBin != "" {
		fmt.Fprintf(w, "; on the questions both answer, snap %d, peer %d", snapShared, peerShared)
	}
	fmt.Fprintln(w, ".")
	if failed {
		return errors.New("some questions answered an error (above): the battery no longer fits the catalog")
	}
	return nil
}

func serveArgs(toolsets string) []string {
	args := []string{"serve"}
	if toolsets != "" {
		args = append(args, "--toolsets", toolsets)
	}
	return args
}

// peerTools are the peer's tools the battery asks; it lists one by default.
const peerTools = "explore,node,search,callers,callees,impact,files,status"

func peerEnv(tools string) []string {
	env := append(os.Environ(), "CODEGRAPH_TELEMETRY=0")
	if tools != "" {
		env = append(env, "CODEGRAPH_MCP_TOOLS="+tools)
	}
	return env
}

// start runs bin args in dir as an MCP server and initializes a session.
func start(ctx context.Context, bin, dir string, env []string, args ...string) (*client.Client, error) {
	if env == nil {
		env = os.Environ()
	}
	c, err := client.NewStdioMCPClientWithOptions(bin, env, args, transport.WithCommandFunc(
		func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env, cmd.Dir = env, dir
			return cmd, nil
		}))
	if err != nil {
		return nil, fmt.Errorf("start %s in %s: %w", bin, dir, err)
	}
	var init mcpgo.InitializeRequest
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "snap-bench-answers", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		c.Close()
		return nil, fmt.Errorf("initialize %s in %s: %w", bin, dir, err)
	}
	return c, nil
}

// catalog returns how many tools c lists, and the tokens of their names,
// descriptions and input schemas, and of the whole of tools/list (titles,
// annotations and output schemas too).
func catalog(ctx context.Context, c *client.Client) (n, in, full int, err error) {
	res, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		return 0, 0, 0, err
	}
	for _, t := range res.Tools {
		raw, err := json.Marshal(t)
		if err != nil {
			return 0, 0, 0, err
		}
		full += len(raw)
		t.OutputSchema, t.RawOutputSchema = mcpgo.ToolOutputSchema{}, nil
		t.Annotations = mcpgo.ToolAnnotation{}
		lean := struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}{Name: t.Name, Description: t.Description}
		if lean.InputSchema, err = inputSchema(t); err != nil {
			return 0, 0, 0, err
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // the text as a model reads it: < stays <
		if err := enc.Encode(lean); err != nil {
			return 0, 0, 0, err
		}
		in += buf.Len() - 1
	}
	return len(res.Tools), tokens(in), tokens(full), nil
}

func inputSchema(t mcpgo.Tool) (json.RawMessage, error) {
	if len(t.RawInputSchema) > 0 {
		return t.RawInputSchema, nil
	}
	return json.Marshal(t.InputSchema)
}

// ask calls tool with args and returns the tokens of the answer's text
// content, what a client puts before the model.
func ask(ctx context.Context, c *client.Client, tool string, args map[string]any) (int, error) {
	var req mcpgo.CallToolRequest
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, part := range res.Content {
		if t, ok := part.(mcpgo.TextContent); ok {
			n += len(t.Text)
		}
	}
	if res.IsError {
		text := ""
		if len(res.Content) > 0 {
			if t, ok := res.Content[0].(mcpgo.TextContent); ok {
				text = t.Text
			}
		}
		return tokens(n), fmt.Errorf("%s answered an error: %.300s", tool, text)
	}
	return tokens(n), nil
}

func tokens(bytes int) int { return (bytes + 3) / 4 }

func batteryNames() []string {
	var names []string
	for n := range batteries {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
