package mcp

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// The bounds of what one client may ask of a server that others share.
// A call over one is refused with LIMIT_EXCEEDED, which names the bound,
// before any of its work is done: no client can exhaust the server's
// memory or hold its time, and no answer is larger than its question
// allows.
const (
	// DefaultMaxRequestBytes bounds one message: a line over stdio, a
	// request body over HTTP (snap serve --max-request-bytes). The
	// largest call is a memory of maxMemory bytes, escaped in JSON.
	DefaultMaxRequestBytes = 512 << 10
	// DefaultCallTimeout bounds one tool call: what waits (a store, the
	// first snapshot) gives up then, and the call answers
	// LIMIT_EXCEEDED.
	DefaultCallTimeout = 30 * time.Second
	// maxArgBytes bounds a string argument: a name, a path, a question.
	// The arguments that carry a memory's text are tagged
	// `bound:"memory"` and take maxMemory.
	maxArgBytes = 4 << 10
	// maxListItems bounds a list argument: seeds, names, kinds.
	maxListItems = 100
	// maxEcho bounds what an answer quotes of an argument.
	maxEcho = 120
)

// quote is s quoted as %q writes it, cut to maxEcho bytes (at a
// character's start) and marked "…" when longer: an argument as an
// answer quotes it back.
func quote(s string) string {
	return strconv.Quote(clip(s))
}

// clip cuts s to maxEcho bytes, at a character's start, marked "…" when
// it was longer.
func clip(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	n := maxEcho
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
