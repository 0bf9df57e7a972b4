package serve

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLaterLogs holds the serve logs to their promise: the later log's
// info lines wait, in order, and go out together in one write after the
// delay; a warning, or any line of the now log, takes every line before
// it out at once; a flush leaves nothing kept.
func TestLaterLogs(t *testing.T) {
	var out writeLog
	now, later, flush := LaterLogs(&out, time.Hour)
	later.Info("first", "n", 1)
	later.Info("second", "n", 2)
	if s, _ := out.read(); s != "" {
		t.Fatalf("info lines written before the delay: %q", s)
	}
	later.Warn("third")
	s, writes := out.read()
	if writes != 1 || !inOrder(s, "msg=first n=1", "msg=second n=2", "level=WARN msg=third") {
		t.Fatalf("a warning should write every line before it, in order, in one write; %d writes:\n%s", writes, s)
	}
	later.With("tool", "x").Info("fourth")
	later.WithGroup("g").Error("fifth", "k", "v")
	if s, _ := out.read(); !inOrder(s, "msg=third", "msg=fourth tool=x", "level=ERROR msg=fifth g.k=v") {
		t.Fatalf("an error from a derived logger should flush too:\n%s", s)
	}
	later.Info("sixth")
	now.With("a", 1).Info("seventh")
	if s, _ := out.read(); !inOrder(s, "msg=fifth", "msg=sixth", "msg=seventh a=1\n") {
		t.Fatalf("a line of the now log should be written at once, after those kept:\n%s", s)
	}
	later.Info("eighth")
	if err := flush(); err != nil {
		t.Fatal(err)
	}
	if s, _ := out.read(); !strings.HasSuffix(s, "msg=eighth\n") {
		t.Fatalf("flush left a line kept:\n%s", s)
	}

	// After the delay, kept lines go out by themselves, in one write.
	var timed writeLog
	_, later, _ = LaterLogs(&timed, 10*time.Millisecond)
	for i := range 3 {
		later.Info("line", "i", i)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s, writes := timed.read()
		if strings.Count(s, "\n") == 3 {
			if writes != 1 || !inOrder(s, "i=0", "i=1", "i=2") {
				t.Fatalf("%d writes, want the three lines in one, in order:\n%s", writes, s)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the kept lines were not written out after the delay: %q", s)
		}
		time.Sleep(5 * time.Millisecond)
	}

	// A writer kept behind holds no more than laterMax bytes.
	var big writeLog
	_, later, _ = LaterLogs(&big, time.Hour)
	long := strings.Repeat("x", 4096)
	for i := 0; ; i++ {
		later.Info(long, "i", i)
		if s, _ := big.read(); s != "" {
			if len(s) < laterMax || !strings.HasPrefix(s, "time=") || !strings.HasSuffix(s, fmt.Sprintf("i=%d\n", i)) {
				t.Fatalf("after %d lines, %d bytes written; want at least %d, whole lines up to the last", i+1, len(s), laterMax)
			}
			break
		}
		if i > 2*laterMax/len(long) {
			t.Fatalf("%d lines of %d bytes kept, nothing written", i+1, len(long))
		}
	}
}

// inOrder reports whether each of parts is in s, after the one before.
func inOrder(s string, parts ...string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// writeLog keeps each write apart, for the tests to count them.
type writeLog struct {
	mu     sync.Mutex
	writes []string
}

func (l *writeLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes = append(l.writes, string(p))
	return len(p), nil
}

// read returns what was written, and in how many writes.
func (l *writeLog) read() (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.writes, ""), len(l.writes)
}
