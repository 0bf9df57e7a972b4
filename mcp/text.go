package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Text renders a tool's JSON answer for a person at a terminal: a symbol
// on one line (kind qname  loc), a list of symbols one a line under its
// count, other values as key: value lines, nested ones indented. An
// answer that is not JSON is returned as it is.
func Text(answer []byte) string {
	v, err := decodeOrdered(json.NewDecoder(bytes.NewReader(answer)))
	if err != nil {
		return string(answer) + "\n"
	}
	var b strings.Builder
	writeText(&b, "", v)
	return b.String()
}

// field is one key of an object, in the order the answer has it.
type field struct {
	key   string
	value any
}

// decodeOrdered reads a JSON value, objects as []field.
func decodeOrdered(d *json.Decoder) (any, error) {
	d.UseNumber()
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var obj []field
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(d)
			if err != nil {
				return nil, err
			}
			obj = append(obj, field{fmt.Sprint(k), v})
		}
		_, err := d.Token()
		return obj, err
	case json.Delim('['):
		list := []any{}
		for d.More() {
			v, err := decodeOrdered(d)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := d.Token()
		return list, err
	}
	return tok, nil
}

func writeText(b *strings.Builder, indent string, v any) {
	switch v := v.(type) {
	case []field:
		for _, f := range v {
			switch fv := f.value.(type) {
			case []field:
				if line, ok := symbolLine(fv); ok {
					fmt.Fprintf(b, "%s%s: %s\n", indent, f.key, line)
					continue
				}
				fmt.Fprintf(b, "%s%s:\n", indent, f.key)
				writeText(b, indent+"  ", fv)
			case []any:
				if s, ok := scalars(fv); ok {
					fmt.Fprintf(b, "%s%s: %s\n", indent, f.key, s)
					continue
				}
				fmt.Fprintf(b, "%s%s (%d):\n", indent, f.key, len(fv))
				writeText(b, indent+"  ", fv)
			default:
				fmt.Fprintf(b, "%s%s: %s\n", indent, f.key, scalar(fv))
			}
		}
	case []any:
		for _, item := range v {
			switch iv := item.(type) {
			case []field:
				if line, ok := symbolLine(iv); ok {
					fmt.Fprintf(b, "%s%s\n", indent, line)
					continue
				}
				fmt.Fprintf(b, "%s-\n", indent)
				writeText(b, indent+"  ", iv)
			default:
				writeText(b, indent, item)
			}
		}
	default:
		fmt.Fprintf(b, "%s%s\n", indent, scalar(v))
	}
}

// symbolLine is a symbol's line: kind qname  loc, and its other scalar
// fields; ok is false when obj is not a symbol (no kind and qname).
func symbolLine(obj []field) (string, bool) {
	var kind, qname, loc string
	var rest []string
	for _, f := range obj {
		switch f.key {
		case "kind":
			kind = scalar(f.value)
		case "qname":
			qname = scalar(f.value)
		case "loc", "at":
			loc = scalar(f.value)
		case "id", "signature", "doc", "body":
		default:
			if _, nested := f.value.([]field); !nested {
				if _, list := f.value.([]any); !list {
					rest = append(rest, f.key+"="+scalar(f.value))
				}
			}
		}
	}
	if kind == "" || qname == "" {
		return "", false
	}
	line := kind + " " + qname
	if loc != "" {
		line += "  " + loc
	}
	if len(rest) > 0 {
		line += "  " + strings.Join(rest, " ")
	}
	return line, true
}

// scalars joins a list of scalars; ok is false when one is not.
func scalars(list []any) (string, bool) {
	var parts []string
	for _, v := range list {
		switch v.(type) {
		case []field, []any:
			return "", false
		}
		parts = append(parts, scalar(v))
	}
	return strings.Join(parts, ", "), true
}

func scalar(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return v
	}
	return fmt.Sprint(v)
}
