package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchModules are 20 real modules from the Go module proxy, small and
// large, some importing others (x/net → x/text, minio-go → x/net, …).
var benchModules = []string{
	"golang.org/x/net@v0.60.0", "golang.org/x/text@v0.42.0", "golang.org/x/sync@v0.24.0", "golang.org/x/mod@v0.41.0",
	"golang.org/x/crypto@v0.57.0", "github.com/klauspost/compress@v1.19.2", "github.com/minio/minio-go/v7@v7.4.1",
	"github.com/mark3labs/mcp-go@v1.2.1", "github.com/modelcontextprotocol/go-sdk@v1.8.0", "github.com/parquet-go/parquet-go@v0.32.0",
	"github.com/google/go-cmp@v0.7.0", "github.com/google/uuid@v1.6.0", "github.com/google/jsonschema-go@v0.4.3",
	"github.com/bmatcuk/doublestar/v4@v4.10.4", "github.com/cespare/xxhash/v2@v2.3.0", "github.com/stretchr/testify@v1.12.1",
	"github.com/goccy/go-json@v0.10.3", "go.yaml.in/yaml/v3@v3.0.5", "github.com/andybalholm/brotli@v1.1.1",
	"github.com/santhosh-tekuri/jsonschema/v6@v6.0.3",
}

var benchStore struct {
	once sync.Once
	dir  string
	err  error
}

// reposStore indexes benchModules into one store, once per run.
func reposStore(b *testing.B) string {
	benchStore.once.Do(func() {
		dir, err := os.MkdirTemp("", "snap-repos-bench-")
		if err != nil {
			benchStore.err = err
			return
		}
		benchStore.dir = filepath.Join(dir, "store")
		for _, m := range benchModules {
			indexAs(b, benchStore.dir, strings.Split(m, "@")[0], moduleDir(b, m))
		}
	})
	if benchStore.err != nil {
		b.Fatal(benchStore.err)
	}
	return benchStore.dir
}

// BenchmarkSeveralRepositories measures the start of a server of 1, 5 and
// 20 repositories to its first answer, and its peak memory:
//
//	cd e2e && go test -run x -bench SeveralRepositories -benchtime 3x
func BenchmarkSeveralRepositories(b *testing.B) {
	store := reposStore(b)
	for _, n := range []int{1, 5, 20} {
		b.Run(fmt.Sprintf("repos=%d", n), func(b *testing.B) {
			args := []string{"serve", "--store", store}
			for _, m := range benchModules[:n] {
				args = append(args, "--repo", strings.Split(m, "@")[0])
			}
			var rss, nodes float64
			for b.Loop() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				cmd := exec.Command(snapBin, args...)
				cmd.Dir = b.TempDir()
				client := mcp.NewClient(&mcp.Implementation{Name: "snap-bench", Version: "1"}, nil)
				sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
				if err != nil {
					b.Fatal(err)
				}
				ans, isErr := call(b, sess, "snap_status", nil)
				if isErr {
					b.Fatalf("snap_status: %v", ans)
				}
				nodes, _ = ans["nodes"].(float64)
				rss = max(rss, peakRSS(b, cmd.Process.Pid))
				sess.Close()
				cancel()
			}
			b.ReportMetric(rss/(1<<20), "peak-MiB")
			b.ReportMetric(nodes, "nodes")
		})
	}
}

// peakRSS is the peak resident memory of a process, in bytes.
func peakRSS(b *testing.B, pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb * 1024
		}
	}
	b.Fatal("no VmHWM")
	return 0
}
