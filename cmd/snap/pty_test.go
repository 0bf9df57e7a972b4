package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// runOnTerminal runs snap with its stdout on a pseudo-terminal, as a
// person at a shell sees it, and returns the exit code and what the
// terminal received.
func runOnTerminal(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("name the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the terminal: %v", err)
	}
	var got bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&got, ptmx) // ends with EIO once the terminal is closed
		close(done)
	}()
	if dir != "" {
		t.Chdir(dir)
	}
	var stderr bytes.Buffer
	code := Run(context.Background(), append([]string{"snap"}, args...), strings.NewReader(""), tty, &stderr)
	tty.Close()
	<-done
	if stderr.Len() > 0 {
		t.Logf("stderr: %s", stderr.String())
	}
	return code, strings.ReplaceAll(got.String(), "\r\n", "\n")
}
