package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// usage is a finished process's figures; wall is measured by the caller.
func usage(ps *os.ProcessState, wall time.Duration) procRun {
	r := procRun{Wall: wall.Seconds(), User: ps.UserTime().Seconds(), Sys: ps.SystemTime().Seconds()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		r.MaxRSS = int64(ru.Maxrss)
		if runtime.GOOS != "darwin" { // Linux counts KiB, macOS bytes
			r.MaxRSS *= 1024
		}
	}
	return r
}

// coldStarts times `snap serve --snapshot DIR` from its start to the
// answer of its first tool call, cfg.Runs times.
func (b *bench) coldStarts(ctx context.Context, snapshot string) error {
	for i := range b.cfg.Runs {
		r, err := b.coldStart(ctx, snapshot)
		if err != nil {
			return err
		}
		slog.Info("cold start", "run", i+1, "answer", r.Wall, "rss", r.MaxRSS)
		b.rep.ColdStart.Runs = append(b.rep.ColdStart.Runs, r)
	}
	return nil
}

// coldStart spawns snap serve and speaks raw JSON-RPC over its pipes:
// initialize, then the initialized notification and a tools/call of
// snap_status. Wall is the time from the spawn to the call's answer;
// user, system and peak RSS are the whole process's, which exits when
// its standard input closes.
func (b *bench) coldStart(ctx context.Context, snapshot string) (procRun, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.cfg.Snap, "serve", "--snapshot", snapshot)
	cmd.Dir = b.tmp
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return procRun{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return procRun{}, err
	}
	send := func(msg string) error {
		_, err := io.WriteString(stdin, msg+"\n")
		return err
	}
	in := bufio.NewReader(stdout)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return procRun{}, err
	}
	fail := func(err error) (procRun, error) {
		cmd.Process.Kill()
		cmd.Wait()
		return procRun{}, fmt.Errorf("snap serve: %w\n%s", err, lastLines(stderr.String(), 20))
	}
	if err := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"snap-bench","version":"1"}}}`); err != nil {
		return fail(err)
	}
	if _, err := await(in, 1); err != nil {
		return fail(err)
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return fail(err)
	}
	if err := send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"snap_status","arguments":{}}}`); err != nil {
		return fail(err)
	}
	res, err := await(in, 2)
	wall := time.Since(start)
	if err != nil {
		return fail(err)
	}
	var out struct {
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(res, &out); err != nil || out.IsError {
		return fail(fmt.Errorf("snap_status answered %s", res))
	}
	stdin.Close()
	go io.Copy(io.Discard, in)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		err = <-done
	}
	if err != nil {
		return procRun{}, fmt.Errorf("snap serve after its answer: %w\n%s", err, lastLines(stderr.String(), 20))
	}
	return usage(cmd.ProcessState, wall), nil
}

// await reads messages until the response with id, returning its result.
func await(in *bufio.Reader, id int) (json.RawMessage, error) {
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("read response %d: %w", id, err)
		}
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil || *msg.ID != id {
			continue // a notification, a log line
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("response %d: error %s", id, msg.Error)
		}
		return msg.Result, nil
	}
}
