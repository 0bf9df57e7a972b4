package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// maxWaiting bounds the calls that wait (see Tool.Waits) running beside
// the read loop at once: past it, the loop waits for one to end before
// it reads on.
const maxWaiting = 16

// ServeStdio serves s over stdin and stdout, one JSON-RPC message a line,
// until ctx is done or stdin ends. Only protocol goes to stdout; the
// transport's errors go to log (nil: none).
//
// A message is handled on the goroutine that read it, and its answer
// written before the next line is read: a tool answers from memory in
// microseconds, and handing each message to another goroutine (as
// mcp-go's stdio transport does, twice) cost more than the answer, as
// every handoff wakes a thread. A call that may wait (on a disk, the
// network, a first snapshot) runs beside the loop instead, so that it
// holds up no other message.
func ServeStdio(ctx context.Context, s *Server, stdin io.Reader, stdout io.Writer, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sess := &stdioSession{notes: make(chan mcpgo.JSONRPCNotification, 64)}
	if err := s.RegisterSession(ctx, sess); err != nil {
		return fmt.Errorf("register the stdio session: %w", err)
	}
	defer s.UnregisterSession(context.Background(), sess.SessionID())
	ctx, cancel := context.WithCancel(s.WithContext(ctx, sess))
	out := &lineWriter{w: stdout}
	notified := make(chan struct{})
	go func() { // notifications: tools/list_changed after snap_update_config
		defer close(notified)
		for {
			select {
			case n := <-sess.notes:
				if err := out.write(n); err != nil {
					log.Error("write a notification to stdout", "err", err)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	defer func() { cancel(); <-notified }()
	read := make(chan error, 1)
	go func() { read <- s.readLoop(ctx, bufio.NewReaderSize(stdin, 64<<10), out, log) }()
	select {
	case err := <-read:
		return err
	case <-ctx.Done():
		// A read blocked on stdin cannot be called off: leave it. The
		// process is stopping.
		return nil
	}
}

// readLoop reads and handles messages until stdin ends. Calls it started
// beside itself are waited for: every message read gets its answer, even
// when stdin ends right after it.
func (s *Server) readLoop(ctx context.Context, r *bufio.Reader, out *lineWriter, log *slog.Logger) error {
	var calls sync.WaitGroup
	defer calls.Wait()
	waiting := make(chan struct{}, maxWaiting)
	sess := server.ClientSessionFromContext(ctx)
	for {
		line, err := readLine(r, s.maxRequest)
		if errors.Is(err, errLineTooLong) {
			if werr := out.write(*tooLarge(s.maxRequest)); werr != nil {
				return werr
			}
			continue
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			// line is the reader's buffer, which the next read reuses.
			msg := json.RawMessage(bytes.Clone(line))
			refused, werr := s.refused(msg, sess, out)
			if werr != nil {
				return werr
			}
			switch {
			case refused:
			case s.waits(msg):
				waiting <- struct{}{}
				calls.Go(func() {
					defer func() { <-waiting }()
					if err := s.answer(ctx, msg, out); err != nil {
						log.Error("write an answer to stdout", "err", err)
					}
				})
			default:
				if werr := s.answer(ctx, msg, out); werr != nil {
					return werr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next line of r, its newline included, in r's
// buffer when it fits. A line longer than max (its newline aside) is
// skipped to its end and errLineTooLong returned.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		long := bytes.Clone(line)
		for errors.Is(err, bufio.ErrBufferFull) && len(long) <= max+2 {
			line, err = r.ReadSlice('\n')
			long = append(long, line...)
		}
		for errors.Is(err, bufio.ErrBufferFull) { // past max: skip the rest
			_, err = r.ReadSlice('\n')
		}
		line = long
	}
	if len(bytes.TrimRight(line, "\r\n")) > max {
		if err != nil && err != io.EOF {
			return nil, err
		}
		return nil, errLineTooLong
	}
	return line, err
}

// refused screens msg (see screen) before it is handled, when it may be
// one that mcp-go would handle wrongly: one with a null, one without a
// method, or any before the session is initialized, which must be an
// initialize (or a ping). It writes the error for a refused message and
// reports whether it did.
func (s *Server) refused(msg json.RawMessage, sess server.ClientSession, out *lineWriter) (bool, error) {
	initialized := sess == nil || sess.Initialized()
	if initialized && !bytes.Contains(msg, []byte("null")) && bytes.Contains(msg, []byte(`"method"`)) {
		return false, nil // the usual message costs no more than before (answer screens the rest)
	}
	h, rej := screen(msg)
	if rej == nil && !initialized && !h.notification && !h.response && !h.modern &&
		h.method != string(mcpgo.MethodInitialize) && h.method != string(mcpgo.MethodPing) {
		rej = rpcError(h.id, mcpgo.INVALID_REQUEST, "the session is not initialized: send initialize first, then "+h.method, nil)
	}
	if rej == nil {
		return false, nil
	}
	return true, out.write(*rej)
}

// answer handles one message and writes its answer, if it has one. An
// error mcp-go answers, or a message it takes for a notification, is
// screened (see screen): the error written is then screen's, in words.
func (s *Server) answer(ctx context.Context, msg json.RawMessage, out *lineWriter) error {
	resp := s.handle(ctx, msg)
	if r, ok := resp.(mcpgo.JSONRPCResponse); !ok || !integralID(r.ID) {
		if _, rej := screen(msg); rej != nil {
			resp = *rej
		}
	}
	if resp == nil {
		return nil
	}
	return out.write(resp)
}

// handle is HandleMessage with a panic turned into an internal error
// (tool handlers have their own recovery; this covers the rest).
func (s *Server) handle(ctx context.Context, msg json.RawMessage) (resp mcpgo.JSONRPCMessage) {
	defer func() {
		if p := recover(); p != nil {
			var head struct {
				ID *mcpgo.RequestId `json:"id"`
			}
			if json.Unmarshal(msg, &head) != nil || head.ID == nil {
				resp = nil // a notification gets no answer, even an error
				return
			}
			resp = mcpgo.NewJSONRPCError(*head.ID, mcpgo.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", p), nil)
		}
	}()
	return s.HandleMessage(ctx, msg)
}

// integralID reports whether id is one a request may have: a string or
// an integer. mcp-go answers others.
func integralID(id mcpgo.RequestId) bool {
	switch v := id.Value().(type) {
	case string, int64:
		return true
	case float64:
		return v == math.Trunc(v)
	}
	return false
}

// waits reports whether msg is a tool call that may wait: on a tool that
// does (see Tool.Waits) or on the first snapshot.
func (s *Server) waits(msg json.RawMessage) bool {
	if !bytes.Contains(msg, []byte(`"tools/call"`)) {
		return false
	}
	var call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &call) != nil || call.Method != string(mcpgo.MethodToolsCall) {
		return false
	}
	t, ok := catalogTools[call.Params.Name]
	return ok && (t.Waits || t.Offline || s.reg.holder.Load() == nil)
}

// stdioSession is the one client of a stdio server.
type stdioSession struct {
	notes       chan mcpgo.JSONRPCNotification
	initialized atomic.Bool
}

func (s *stdioSession) SessionID() string { return "stdio" }
func (s *stdioSession) NotificationChannel() chan<- mcpgo.JSONRPCNotification {
	return s.notes
}
func (s *stdioSession) Initialize()       { s.initialized.Store(true) }
func (s *stdioSession) Initialized() bool { return s.initialized.Load() }

// lineWriter writes whole messages, a line each, from any goroutine: each
// in one write, so that no two interleave.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (w *lineWriter) write(msg any) error {
	data, err := marshalMessage(msg)
	if err != nil {
		return fmt.Errorf("encode a message: %w", err)
	}
	data = append(data, '\n') // data is the message's own: no copy
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	_, w.err = w.w.Write(data)
	return w.err
}

// marshalMessage is json.Marshal(msg), but for a response whose result
// encodes itself (a tool's, mcpgo.CallToolResult): its bytes go in as
// they come. json.Marshal would run its scanner over them again, to
// check and compact what is compact already, which cost a call over
// stdio half as much as all the rest of its work. So would it over a
// tool's structured content (see marshalResult).
func marshalMessage(msg any) ([]byte, error) {
	resp, ok := msg.(mcpgo.JSONRPCResponse)
	if !ok {
		return json.Marshal(msg)
	}
	m, ok := resp.Result.(json.Marshaler)
	if !ok || resp.JSONRPC != mcpgo.JSONRPC_VERSION {
		return json.Marshal(msg)
	}
	id, err := json.Marshal(resp.ID)
	if err != nil {
		return nil, err
	}
	result, err := marshalResult(m)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(result)+len(id)+40)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}'), nil
}

// marshalResult is m.MarshalJSON(), but for a tool's result whose
// structured content is JSON already (the answer CallJSON encoded, see
// handler): that goes in as it is, where MarshalJSON would have
// encoding/json check and compact it byte by byte, a third of the
// result's encoding.
func marshalResult(m json.Marshaler) ([]byte, error) {
	var r mcpgo.CallToolResult
	switch v := m.(type) {
	case *mcpgo.CallToolResult:
		r = *v
	case mcpgo.CallToolResult:
		r = v
	default:
		return m.MarshalJSON()
	}
	raw, ok := r.StructuredContent.(json.RawMessage)
	if !ok || len(raw) == 0 || len(r.RawStructuredContent) > 0 {
		return m.MarshalJSON()
	}
	r.StructuredContent = nil
	out, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if len(out) < 2 || out[0] != '{' || out[len(out)-1] != '}' {
		return m.MarshalJSON()
	}
	out = out[:len(out)-1]
	if len(out) > 1 {
		out = append(out, ',')
	}
	out = append(out, `"structuredContent":`...)
	out = append(out, raw...)
	return append(out, '}'), nil
}
