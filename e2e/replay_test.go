package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// replayEnv, set to the snap binary, makes the test binary replayMain
// (see TestMain) in front of that binary.
const replayEnv = "SNAP_E2E_REPLAY"

// answerHead is how snap serve begins every answer, its id next.
const answerHead = `{"jsonrpc":"2.0","id":`

// replayMain is a proxy over stdio in front of `bin args...` (snap
// serve): each message goes on to the server, but for a tool call seen
// before, which gets the answer the server gave the first one, under its
// own id, at once. It is the fastest a server can be, for measuring what
// is left of a round trip: the client and the pipes.
func replayMain(bin string, args []string) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "replay:", err)
		return 1
	}
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return fail(err)
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	answers := bufio.NewReaderSize(fromServer, 1<<20)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	recorded := map[string][]byte{} // by tool and arguments: the answer past its id
	for {
		line, rerr := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"params"`
			}
			if err := json.Unmarshal(line, &m); err != nil {
				return fail(fmt.Errorf("%w: %s", err, line))
			}
			key := ""
			if m.Method == "tools/call" {
				key = m.Params.Name + " " + string(m.Params.Arguments)
			}
			if rest, ok := recorded[key]; ok && key != "" {
				if _, err := os.Stdout.Write(append(append([]byte(answerHead), m.ID...), rest...)); err != nil {
					return fail(err)
				}
				continue
			}
			if _, err := toServer.Write(line); err != nil {
				return fail(err)
			}
			// A request's answer: the server's lines up to the one with
			// its id, notifications passed on as they come.
			for head := []byte(answerHead + string(m.ID)); m.ID != nil; {
				a, err := answers.ReadBytes('\n')
				if err != nil {
					return fail(fmt.Errorf("the answer to %s: %w", line, err))
				}
				if _, err := os.Stdout.Write(a); err != nil {
					return fail(err)
				}
				if rest, ok := bytes.CutPrefix(a, head); ok && len(rest) > 0 && (rest[0] == ',' || rest[0] == '}') {
					if key != "" {
						recorded[key] = rest
					}
					break
				}
			}
		}
		if rerr != nil {
			break
		}
	}
	toServer.Close()
	if err := cmd.Wait(); err != nil {
		return fail(err)
	}
	return 0
}

// serveReplay connects the official SDK client to replayMain in front of
// `snap serve --snapshot snapshot --toolsets all`: the test binary
// itself, run again.
func serveReplay(tb testing.TB, snapshot string) (*mcp.ClientSession, *bytes.Buffer) {
	tb.Helper()
	self, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(self, "serve", "--snapshot", snapshot, "--toolsets", "all") // every tool has a sample call
	cmd.Env = append(os.Environ(), replayEnv+"="+snapBin)
	return serveCmd(tb, cmd)
}

// TestStdioReplay holds the proxy BenchmarkStdioReplay measures the SDK
// client with to what it stands for: through it, every tool's sample
// call answers the same twice, and the server behind it answers once.
func TestStdioReplay(t *testing.T) {
	dir := fixture(t, "go/shop")
	calls := sampleCalls(t, dir)
	sess, stderr := serveReplay(t, dir)
	for _, c := range calls {
		params := &mcp.CallToolParams{Name: c.Tool, Arguments: json.RawMessage(c.Args)}
		var got [2][]byte
		for i := range got {
			res, err := sess.CallTool(t.Context(), params)
			if err != nil || res.IsError {
				t.Fatalf("%s %s, call %d: %v %+v\n%s", c.Tool, c.Args, i+1, err, res, stderr)
			}
			got[i], _ = json.Marshal(res)
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Errorf("%s %s: the replayed answer differs:\n%s\n%s", c.Tool, c.Args, got[0], got[1])
		}
	}
	if err := sess.Close(); err != nil {
		t.Fatalf("close: %v\n%s", err, stderr)
	}
	// The server logs each call it answers (msg=mcp.tool), and writes
	// out its log before it exits, which Close waits for.
	if n := strings.Count(stderr.String(), "msg=mcp.tool "); n != len(calls) {
		t.Errorf("the server answered %d tool calls of %d; the replay should pass each on once:\n%s", n, 2*len(calls), stderr)
	}
}
