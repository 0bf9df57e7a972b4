package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Every message is screened before mcp-go handles it, the same way over
// stdio and HTTP, for what JSON-RPC 2.0 and MCP say of a message that
// mcp-go lets through or answers in Go's words: a request whose id is
// null (mcp-go takes it for a notification, and answers nothing), a
// message without a method (over HTTP, mcp-go answers 202), a parameter
// of the wrong type ("json: cannot unmarshal number into Go struct field
// ..."). Such a message gets an error that says, in words, what is wrong
// and what is wanted.

// maxToolName bounds the name of a tool a call may ask for: mcp-go quotes
// it back when there is no such tool.
const maxToolName = 64

// head is what screen learns of a message.
type head struct {
	id           json.RawMessage // as sent; nil for a notification
	method       string
	tool         string // a tools/call's tool
	notification bool   // no id: it gets no answer
	response     bool   // the client's answer to the server's request
	modern       bool   // a request of MCP 2026-07-28, which needs no initialize
}

// message is a JSON-RPC message, each member as sent; a member absent
// is nil, one that is null holds null.
type message struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// params are the parameters mcp-go decodes in Go's words, of the methods
// that have them (see paramKinds), as sent.
type params struct {
	Name            json.RawMessage `json:"name"`
	URI             json.RawMessage `json:"uri"`
	Cursor          json.RawMessage `json:"cursor"`
	Level           json.RawMessage `json:"level"`
	ProtocolVersion json.RawMessage `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ClientInfo      json.RawMessage `json:"clientInfo"`
	Meta            json.RawMessage `json:"_meta"`
}

// param is one parameter a method takes: its name, the field of params
// that holds it, the JSON kind it must have, and whether it must be there.
type param struct {
	name     string
	field    func(*params) json.RawMessage
	kind     string
	required bool
}

var (
	nameParam   = param{"name", func(p *params) json.RawMessage { return p.Name }, "string", true}
	cursorParam = param{"cursor", func(p *params) json.RawMessage { return p.Cursor }, "string", false}
)

// paramKinds are the parameters of the methods whose parameters mcp-go
// decodes in Go's words.
var paramKinds = map[string][]param{
	string(mcpgo.MethodToolsCall):              {nameParam},
	string(mcpgo.MethodResourcesRead):          {{"uri", func(p *params) json.RawMessage { return p.URI }, "string", true}},
	string(mcpgo.MethodToolsList):              {cursorParam},
	string(mcpgo.MethodResourcesList):          {cursorParam},
	string(mcpgo.MethodResourcesTemplatesList): {cursorParam},
	string(mcpgo.MethodPromptsList):            {cursorParam},
	string(mcpgo.MethodSetLogLevel):            {{"level", func(p *params) json.RawMessage { return p.Level }, "string", true}},
	string(mcpgo.MethodInitialize): {
		{"protocolVersion", func(p *params) json.RawMessage { return p.ProtocolVersion }, "string", false},
		{"capabilities", func(p *params) json.RawMessage { return p.Capabilities }, "object", false},
		{"clientInfo", func(p *params) json.RawMessage { return p.ClientInfo }, "object", false},
	},
}

// screen checks msg. It returns what it learned, and the error to answer
// instead of handling msg, if any (never for a notification: those get
// no answer).
func screen(msg []byte) (head, *mcpgo.JSONRPCError) {
	var h head
	var m message // its members take any JSON: the checks below say what each must be
	if !json.Valid(msg) {
		return h, rpcError(nil, mcpgo.PARSE_ERROR, "the message is not JSON", nil)
	}
	if k := jsonKind(msg); k != "object" || json.Unmarshal(msg, &m) != nil {
		return h, rpcError(nil, mcpgo.INVALID_REQUEST, fmt.Sprintf("a message is a JSON object, not %s (MCP sends no batches)", an(k)), nil)
	}
	var id any // as sent: an integer keeps all its digits
	if m.ID != nil {
		if !validID(m.ID) {
			kind := an(jsonKind(m.ID))
			if kind == "a number" {
				kind = "a number with a fraction or an exponent"
			}
			return h, rpcError(nil, mcpgo.INVALID_REQUEST, fmt.Sprintf("id: a request's id is a string or an integer, never %s", kind), nil)
		}
		h.id = m.ID
		id = h.id
	}
	if string(m.JSONRPC) != `"2.0"` {
		return h, rpcError(id, mcpgo.INVALID_REQUEST, `jsonrpc: want "2.0", the only version of JSON-RPC MCP speaks`, nil)
	}
	if m.Method == nil {
		if m.ID != nil && (m.Result != nil || m.Error != nil) {
			h.response = true
			return h, nil
		}
		return h, rpcError(id, mcpgo.INVALID_REQUEST, "the message names no method: a request or a notification has one (tools/call, tools/list, ...)", nil)
	}
	if json.Unmarshal(m.Method, &h.method) != nil {
		return h, rpcError(id, mcpgo.INVALID_REQUEST, fmt.Sprintf("method: want a string, got %s", jsonKind(m.Method)), nil)
	}
	h.notification = m.ID == nil
	kinds := paramKinds[h.method]
	var p params
	switch k := jsonKind(m.Params); {
	case k == "object":
		json.Unmarshal(m.Params, &p) // valid JSON, into members that take any
	case k == "" || k == "null":
	case h.notification:
		return h, nil
	default:
		return h, rpcError(id, mcpgo.INVALID_PARAMS, fmt.Sprintf("params: want an object, got %s", k), nil)
	}
	if k := jsonKind(p.Meta); k != "" && k != "object" && k != "null" {
		if h.notification {
			return h, nil
		}
		return h, rpcError(id, mcpgo.INVALID_PARAMS, fmt.Sprintf("params._meta: want an object, got %s", k), nil)
	} else if k == "object" {
		var meta mcpgo.Meta
		if json.Unmarshal(p.Meta, &meta) == nil {
			h.modern = mcpgo.IsModernProtocol(meta.ProtocolVersion())
		}
	}
	if h.notification {
		return h, nil
	}
	for _, pm := range kinds {
		got := jsonKind(pm.field(&p))
		switch {
		case (got == "" || got == "null") && pm.required:
			return h, rpcError(id, mcpgo.INVALID_PARAMS, fmt.Sprintf("params.%s: required, %s", pm.name, an(pm.kind)), nil)
		case got != "" && got != "null" && got != pm.kind:
			return h, rpcError(id, mcpgo.INVALID_PARAMS, fmt.Sprintf("params.%s: want %s, got %s", pm.name, an(pm.kind), got), nil)
		}
	}
	if h.method == string(mcpgo.MethodToolsCall) {
		json.Unmarshal(p.Name, &h.tool)
		if len(h.tool) > maxToolName {
			return h, rpcError(id, mcpgo.INVALID_PARAMS, fmt.Sprintf("params.name: %d bytes, longer than any tool's name", len(h.tool)), nil)
		}
	}
	return h, nil
}

// validID reports whether raw is an id a request may have: a string, or
// an integer.
func validID(raw json.RawMessage) bool {
	switch jsonKind(raw) {
	case "string":
		return true
	case "number":
		return !bytes.ContainsAny(raw, ".eE")
	}
	return false
}

// rpcError is a JSON-RPC error answering the request of id (nil: none
// known).
func rpcError(id any, code int, message string, data any) *mcpgo.JSONRPCError {
	e := mcpgo.NewJSONRPCError(mcpgo.NewRequestId(id), code, message, data)
	return &e
}

// tooLarge is the error for a message over the bound of limit bytes.
func tooLarge(limit int) *mcpgo.JSONRPCError {
	return rpcError(nil, mcpgo.INVALID_REQUEST,
		fmt.Sprintf("message longer than %d bytes, the most this server takes: send smaller ones", limit),
		map[string]any{"code": CodeLimitExceeded, "limit": limit})
}
