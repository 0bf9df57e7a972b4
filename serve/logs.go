package serve

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// laterWriter keeps what is written to it and writes it out in one go,
// at most delay later: snap serve logs two lines a tool call, and
// writing them to stderr before the answer went out took a quarter of a
// call's round trip (two system calls, each waking whoever reads the
// log). Flush writes out what is kept at once; so does a Write that
// brings it to laterMax bytes, which holds up a writer only while the
// one reading the log is behind, as a plain write would.
type laterWriter struct {
	mu    sync.Mutex
	w     io.Writer
	delay time.Duration
	buf   []byte
	timer *time.Timer // armed while buf holds anything
}

const laterMax = 256 << 10

func newLaterWriter(w io.Writer, delay time.Duration) *laterWriter {
	return &laterWriter{w: w, delay: delay}
}

func (l *laterWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	switch {
	case len(l.buf) >= laterMax:
		return len(p), l.flushLocked()
	case l.timer == nil:
		l.timer = time.AfterFunc(l.delay, func() { l.Flush() })
	}
	return len(p), nil
}

// Flush writes out everything written so far.
func (l *laterWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.flushLocked()
}

func (l *laterWriter) flushLocked() error {
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.w.Write(l.buf)
	l.buf = l.buf[:0]
	return err
}

// flushingHandler is a handler writing to a laterWriter that flushes it
// after each record at level at or above: such a record is written out at
// once, after every line logged before it.
type flushingHandler struct {
	slog.Handler
	w  *laterWriter
	at slog.Level
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= h.at {
		if ferr := h.w.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h flushingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(attrs), h.w, h.at}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.w, h.at}
}

// LaterLogs are two loggers over one laterWriter on w, text lines from
// level info: now
// writes each line at once (after those later kept), later keeps its
// informational lines up to delay, writing warnings and errors at once.
// flush writes out what is kept, and must be called before the process
// ends.
func LaterLogs(w io.Writer, delay time.Duration) (now, later *slog.Logger, flush func() error) {
	lw := newLaterWriter(w, delay)
	h := slog.NewTextHandler(lw, &slog.HandlerOptions{Level: slog.LevelInfo})
	now = slog.New(flushingHandler{h, lw, slog.LevelDebug})
	later = slog.New(flushingHandler{h, lw, slog.LevelWarn})
	return now, later, lw.Flush
}
