package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// machine describes where the figures were measured.
type machine struct {
	CPU         string `json:"cpu"`
	Cores       int    `json:"cores"` // logical CPUs
	MemoryBytes int64  `json:"memory_bytes"`
	OS          string `json:"os"`
	Kernel      string `json:"kernel"`
	Arch        string `json:"arch"`
	Go          string `json:"go"`
	SnapCommit  string `json:"snap_commit"`
	LoadStart   string `json:"load_average_start"` // /proc/loadavg: 1, 5, 15 minutes
	LoadEnd     string `json:"load_average_end"`
}

func describeMachine(ctx context.Context, root string) machine {
	m := machine{
		CPU:       procField("/proc/cpuinfo", "model name"),
		Cores:     runtime.NumCPU(),
		OS:        runtime.GOOS,
		Arch:      runtime.GOARCH,
		LoadStart: loadAverage(),
	}
	if kib, err := strconv.ParseInt(strings.Fields(procField("/proc/meminfo", "MemTotal") + " 0")[0], 10, 64); err == nil {
		m.MemoryBytes = kib << 10
	}
	if pretty := osRelease(); pretty != "" {
		m.OS = pretty
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	m.Go, _ = goOutput(ctx, root, nil, "env", "GOVERSION")
	if out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "HEAD").Output(); err == nil {
		m.SnapCommit = strings.TrimSpace(string(out))
		// Changes to tracked files make the binary differ from the commit.
		if st, err := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			m.SnapCommit += "+dirty"
		}
	}
	return m
}

// procField returns the value of the first "key : value" line of a
// /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func osRelease() string {
	b, err := os.ReadFile("/etc/os-release")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "PRETTY_NAME="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}
