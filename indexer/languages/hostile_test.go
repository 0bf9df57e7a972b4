package languages

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/languagetest"
	"github.com/graphsnap/snap/schemas"
)

// The hostile repository: what a tree may hold to hang, stall or crash
// the index. Each case states the row the files table must then have;
// none may hold up the run. The bounds on time below are coarse: they
// tell a file that cost its limit from one that ran for minutes.

// hang is longer than any run below takes, and shorter than the minutes
// each hostile file took before it was bounded.
const hang = 60 * time.Second

// bigJava returns a megabyte of Java calls. The Python grammar's error
// recovery takes minutes over it.
func bigJava() string {
	return "class Big { void m() {\n" + strings.Repeat("f(1, 2, 3);\n", 85_000) + "} }\n"
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// indexWithin indexes dir with every language and opts, and fails t when
// the run takes longer than hang.
func indexWithin(t *testing.T, dir string, opts indexer.Options) map[string]schemas.File {
	t.Helper()
	opts.Languages, opts.Workers = All(), 2
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	start := time.Now()
	g, err := indexer.Index(ctx, dir, opts)
	if err != nil {
		t.Fatalf("index after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
	files := make(map[string]schemas.File)
	parseErrors := 0
	for _, f := range g.Files {
		files[f.Path] = f
		if f.Status == schemas.StatusParseError {
			parseErrors++
		}
	}
	if g.Stats.ParseErrors != parseErrors {
		t.Errorf("the run counts %d parse errors; the files table has %d", g.Stats.ParseErrors, parseErrors)
	}
	return files
}

// wantStatus fails t unless the file at p was recorded with status and
// an error holding errHas.
func wantStatus(t *testing.T, files map[string]schemas.File, p, status, errHas string) {
	t.Helper()
	f, ok := files[p]
	switch {
	case !ok:
		t.Errorf("%q: not recorded", p)
	case f.Status != status || !strings.Contains(f.Error, errHas):
		t.Errorf("%q: %s (%s), want %s (%s)", p, f.Status, f.Error, status, errHas)
	}
}

// specialTree makes a tree of a Go and a TypeScript file, and of files
// that are not regular files, and links to them, in the tree and out of
// it. It reports whether it could make a device (root can).
func specialTree(t *testing.T) (dir string, device bool) {
	dir = t.TempDir()
	outside := t.TempDir()
	languagetest.WriteFiles(t, dir, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "b.ts": "export function b() {}\n"})
	languagetest.WriteFiles(t, outside, map[string]string{"secret.go": "package secret\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.go"), 0o644); err != nil {
		skip(t, "no named pipes here: %v", err)
	}
	// A pipe no one writes to: reading it waits for ever.
	symlink(t, "pipe.go", filepath.Join(dir, "pipe-link.go"))
	// Files an extractor reads beside the one it parses.
	symlink(t, "pipe.go", filepath.Join(dir, "go.mod"))
	symlink(t, "pipe.go", filepath.Join(dir, "package.json"))
	// A socket cannot be opened at all.
	l, err := net.Listen("unix", filepath.Join(dir, "sock.go"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	symlink(t, "sock.go", filepath.Join(dir, "sock-link.go"))
	// Devices: the endless /dev/zero, out of the tree, and one made in it.
	symlink(t, "/dev/zero", filepath.Join(dir, "zero.go"))
	symlink(t, "/dev/null", filepath.Join(dir, "null.go"))
	symlink(t, filepath.Join(outside, "secret.go"), filepath.Join(dir, "out.go"))
	// 1, 5 is /dev/zero's: reading it never ends.
	if err := syscall.Mknod(filepath.Join(dir, "dev.go"), syscall.S_IFCHR|0o644, 1<<8|5); err == nil {
		device = true
		symlink(t, "dev.go", filepath.Join(dir, "dev-link.go"))
	}
	return dir, device
}

// TestSpecialFiles indexes a tree holding a named pipe, a socket and a
// device, links to them, and links to devices and files out of the tree:
// what is no regular file is recorded as skipped_special and never read
// (reading the pipe waited for ever, the device never ended), what lies
// out of the tree as unreadable. It walks the tree twice: with git,
// which lists the links, and without it (the walk of a folder), which
// lists the pipe, socket and device too and reads a .gitignore that is a
// pipe.
func TestSpecialFiles(t *testing.T) {
	dir, device := specialTree(t)
	check := func(t *testing.T, files map[string]schemas.File, unlinked bool) {
		wantStatus(t, files, "a.go", schemas.StatusOK, "")
		wantStatus(t, files, "b.ts", schemas.StatusOK, "")
		for _, p := range []string{"pipe-link.go", "go.mod", "package.json"} {
			wantStatus(t, files, p, schemas.StatusSkippedSpecial, "a named pipe (FIFO)")
		}
		wantStatus(t, files, "sock-link.go", schemas.StatusSkippedSpecial, "a socket")
		for _, p := range []string{"zero.go", "null.go", "out.go"} {
			wantStatus(t, files, p, schemas.StatusUnreadable, "escapes")
		}
		if device {
			wantStatus(t, files, "dev-link.go", schemas.StatusSkippedSpecial, "a character device")
		}
		if unlinked {
			wantStatus(t, files, "pipe.go", schemas.StatusSkippedSpecial, "a named pipe (FIFO)")
			wantStatus(t, files, "sock.go", schemas.StatusSkippedSpecial, "a socket")
			if device {
				wantStatus(t, files, "dev.go", schemas.StatusSkippedSpecial, "a character device")
			}
		}
		for p, f := range files {
			if f.Status == schemas.StatusSkippedSpecial && (f.SHA256 != "" || f.Size != 0) {
				t.Errorf("%s: skipped_special with sha256 %q and size %d, want none", p, f.SHA256, f.Size)
			}
		}
	}
	t.Run("git", func(t *testing.T) {
		requireGit(t)
		check(t, indexWithin(t, dir, indexer.Options{}), false)
	})
	t.Run("folder", func(t *testing.T) {
		languagetest.WriteFiles(t, dir, map[string]string{"sub/c.go": "package sub\n"})
		if err := syscall.Mkfifo(filepath.Join(dir, "sub", ".gitignore"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", t.TempDir()) // no git: Walk walks the folder
		files := indexWithin(t, dir, indexer.Options{})
		check(t, files, true)
		wantStatus(t, files, "sub/c.go", schemas.StatusOK, "")
	})
}

// skip skips t for what this machine lacks, unless SNAP_REQUIRE_TOOLS is
// set (make test sets it): there it fails instead.
func skip(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("SNAP_REQUIRE_TOOLS") != "" {
		t.Fatalf(format+" (SNAP_REQUIRE_TOOLS is set, so this does not skip)", args...)
	}
	t.Skipf(format, args...)
}

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		skip(t, "no git here")
	}
}

// nested holds a statement of each language around a call nested n deep:
// f(f(f(…))).
var nested = map[string]string{
	"A.java":   "class A { void m() { Object x = %s; } }\n",
	"a.py":     "x = %s\n",
	"a.go":     "package a\n\nvar x = %s\n",
	"a.ts":     "const x = %s;\n",
	"a.js":     "const x = %s;\n",
	"a.c":      "int m() { return %s; }\n",
	"a.cpp":    "int m() { return %s; }\n",
	"A.cs":     "class A { object M() { return %s; } }\n",
	"a.rs":     "fn m() { let x = %s; }\n",
	"a.rb":     "x = %s\n",
	"a.php":    "<?php $x = %s;\n",
	"A.kt":     "val x = %s\n",
	"A.scala":  "object A { val x = %s }\n",
	"a.swift":  "let x = %s\n",
	"a.lua":    "x = %s\n",
	"a.sh":     "x=%s\n",
	"a.tsx":    "const x = %s;\n",
	"a.h":      "int m(void) { return %s; }\n",
	"a.hpp":    "int m() { return %s; }\n",
	"A.groovy": "%s\n", // no language: unsupported, not parsed
}

// nest returns a call nested n deep, one line a level (so that the file
// is not taken for minified), in the language of name.
func nest(name string, n int) string {
	open, end := "f(\n", ")"
	if strings.HasSuffix(name, ".sh") {
		open = "$(f \n"
	}
	return fmt.Sprintf(nested[name], strings.Repeat(open, n)+"1"+strings.Repeat(end, n))
}

// TestNestedCode indexes a file of calls nested 70,000 deep (200 KB) in
// every language: tree-sitter's query cursor took time quadratic in the
// depth (Java's 200 KB, 56 s; Ruby's crashed the process), and so did
// the extractors that read the text of each call's arguments. Each is
// now a parse error saying it is nested too deep, and no file takes
// minutes; its time limit is wide, so that no slow machine makes it a
// timeout instead.
func TestNestedCode(t *testing.T) {
	dir := t.TempDir()
	files := make(map[string]string)
	for name := range nested {
		files[name] = nest(name, 70_000)
	}
	languagetest.WriteFiles(t, dir, files)
	got := indexWithin(t, dir, indexer.Options{MaxFileTime: hang})
	for name := range nested {
		if name == "A.groovy" {
			wantStatus(t, got, name, schemas.StatusUnsupported, "")
			continue
		}
		wantStatus(t, got, name, schemas.StatusParseError, indexer.ErrTooDeep.Error())
	}
}

// TestMaxFileTime indexes files that take longer than the time limit: a
// file nested less deep than the limit on depth, but deep enough to take
// seconds, and a megabyte of calls, which parses in more than the limit
// of a millisecond. Each is given up within its limit (the parse and the
// query stop in C) and recorded as skipped_timeout, saying so, with its
// size and hash.
func TestMaxFileTime(t *testing.T) {
	dir := t.TempDir()
	languagetest.WriteFiles(t, dir, map[string]string{
		"Big.java": bigJava(),
		"big.py":   strings.Repeat("f(1, 2, 3)\n", 95_000),
		"big.go":   "package a\n\nfunc m() {\n" + strings.Repeat("f(1, 2, 3)\n", 95_000) + "}\n",
	})
	start := time.Now()
	files := indexWithin(t, dir, indexer.Options{MaxFileTime: time.Millisecond})
	for _, name := range []string{"Big.java", "big.py", "big.go"} {
		wantStatus(t, files, name, schemas.StatusSkippedTimeout, "parse and extraction took over 1ms (--max-file-time)")
		if f := files[name]; f.Size < 1e6 || len(f.SHA256) != 64 {
			t.Errorf("%s: size %d, sha256 %q: want both", name, f.Size, f.SHA256)
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("three files with a limit of 1ms took %v", d)
	}
}

// TestExtractStops cancels the context of an extraction under way, and
// one already done: Extract gives up, in C and in Go, with the context's
// error, and keeps working for the next file. So does a bare parse, which
// only C can stop.
func TestExtractStops(t *testing.T) {
	src := []byte(bigJava())
	for _, l := range All() {
		if l.Name() != "java" && l.Name() != "go" && l.Name() != "python" {
			continue
		}
		p, err := indexer.NewParser(unsafe.Pointer(l.Grammar().Inner))
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		_, _, _, err = p.Scan(ctx, src)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: a parse of a megabyte with 5ms to go: %v, want the deadline's error", l.Name(), err)
		}
		x, err := l.NewExtractor(&indexer.Tree{Paths: map[string]bool{}})
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
		_, err = x.Extract(ctx, "big", src)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: a megabyte with a millisecond to go: %v, want the deadline's error", l.Name(), err)
		}
		ctx, cancel = context.WithCancel(context.Background())
		cancel()
		if _, err := x.Extract(ctx, "small", []byte("x")); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled: %v, want the context's error", l.Name(), err)
		}
		if _, err := x.Extract(context.Background(), "small", []byte("x")); err != nil {
			t.Errorf("%s: after a cancelled extraction: %v", l.Name(), err)
		}
	}
}

// TestIndexCancelled cancels a run while it parses a file that takes
// seconds: Index returns the context's error at once.
func TestIndexCancelled(t *testing.T) {
	dir := t.TempDir()
	languagetest.WriteFiles(t, dir, map[string]string{"big.py": bigJava(), "Deep.java": nest("A.java", 3000)})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, err := indexer.Index(ctx, dir, indexer.Options{Languages: All(), Workers: 1, MaxFileTime: -1})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("index: %v, want the context's error", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelled after 20ms, Index returned after %v", d)
	}
}

// TestAwkwardFiles indexes files that are odd but not special: bytes that
// are not UTF-8 and NUL bytes in every language's files, names holding a
// new line, and a sparse file of 100 MB and one of a terabyte, whose
// hash would take minutes to read.
func TestAwkwardFiles(t *testing.T) {
	dir := t.TempDir()
	junk := "\xff\xfe\x00\xc3\x28 f(\x00) \xed\xa0\x80 \"\xf4\x90\x80\x80\"\n"
	files := map[string]string{
		"new\nline.go":        "package a\n\nfunc A() {}\n",
		"tab\tand\rreturn.py": "def f(): pass\n",
	}
	for name := range nested {
		body := fmt.Sprintf(nested[name], "f(1)")
		files["utf8/"+name] = body + junk + body
		// A NUL past the first 8000 bytes: not taken for binary, parsed.
		files["nul/"+name] = strings.Repeat(body, 8000/len(body)+1) + junk
	}
	languagetest.WriteFiles(t, dir, files)
	for name, size := range map[string]int64{"sparse.go": 100 << 20, "tera.go": 1 << 40} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		err = f.Truncate(size)
		f.Close()
		if err != nil {
			skip(t, "no sparse files here: %v", err)
		}
	}
	got := indexWithin(t, dir, indexer.Options{MaxFileTime: 4 * time.Second})
	for p, f := range got {
		if strings.HasPrefix(p, "utf8/") || strings.HasPrefix(p, "nul/") {
			switch f.Status {
			case schemas.StatusOK, schemas.StatusParseError, schemas.StatusSkippedBinary, schemas.StatusUnsupported:
			default:
				t.Errorf("%q: %s (%s)", p, f.Status, f.Error)
			}
		}
	}
	wantStatus(t, got, "new\nline.go", schemas.StatusOK, "")
	wantStatus(t, got, "tab\tand\rreturn.py", schemas.StatusOK, "")
	wantStatus(t, got, "sparse.go", schemas.StatusSkippedLarge, "104857600 bytes, over the 1048576-byte limit")
	wantStatus(t, got, "tera.go", schemas.StatusSkippedTimeout, "hashing took over 4s (--max-file-time)")
}
