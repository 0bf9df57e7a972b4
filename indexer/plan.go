package indexer

import (
	"errors"
	"fmt"
	"strings"
)

// A plan is a query of the shallow kind most extraction queries are,
// compiled for Scanner's own tree walk instead of tree-sitter's query
// cursor, which on these queries costs about as much as the parse. Each
// pattern is a node type (or a list of alternative types) with direct
// children, each child a field or none, a type, a list of alternative
// types, an anonymous node ("&&") or a wildcard, a quantifier and a
// capture:
//
//	(function_declaration name: (identifier) @func.name body: (block)? @func.body) @func
//	[(expression_case) (default_case)] @cond
//	(binary_expression operator: ["&&" "||"] right: (_) @cond)
//
// Nested children, anchors, predicates, negated fields and anonymous
// (quoted) nodes are not planned: a query using any of them runs on the
// query cursor, as before.
type plan struct {
	patterns []planPattern
}

type planPattern struct {
	types    []string // the alternatives of the pattern's node
	capture  string   // "" when the node is not captured
	children []planChild
}

type planChild struct {
	field   string     // "" for any child
	types   []planType // alternatives; (_), any named node, is {"_", false}
	quant   byte       // 0, '?', '*' or '+'
	capture string
}

type planType struct {
	name      string
	anonymous bool // a quoted node: "&&"
}

var errUnplanned = errors.New("not a shallow query")

// parsePlan reads source as a plan, or returns an error wrapping
// errUnplanned when it uses more than a plan holds.
func parsePlan(source string) (*plan, error) {
	p := &planParser{src: source}
	pl := &plan{}
	for {
		p.space()
		if p.eof() {
			return pl, nil
		}
		pat, err := p.pattern()
		if err != nil {
			return nil, fmt.Errorf("%w: %v at byte %d", errUnplanned, err, p.pos)
		}
		pl.patterns = append(pl.patterns, pat)
	}
}

type planParser struct {
	src string
	pos int
}

func (p *planParser) eof() bool { return p.pos >= len(p.src) }

// space skips blanks and ; comments.
func (p *planParser) space() {
	for !p.eof() {
		switch c := p.src[p.pos]; {
		case c == ';':
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *planParser) peek() byte {
	p.space()
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *planParser) expect(c byte) error {
	if p.peek() != c {
		return fmt.Errorf("want %q", c)
	}
	p.pos++
	return nil
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *planParser) name() (string, error) {
	p.space()
	start := p.pos
	for !p.eof() && isNameByte(p.src[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		return "", errors.New("want a name")
	}
	return p.src[start:p.pos], nil
}

// capture reads an optional @name.
func (p *planParser) capture() (string, error) {
	if p.peek() != '@' {
		return "", nil
	}
	p.pos++
	if p.eof() || !isNameByte(p.src[p.pos]) {
		return "", errors.New("want a capture name")
	}
	name, err := p.name()
	if err != nil {
		return "", err
	}
	if p.peek() == '@' {
		return "", errors.New("two captures on one node")
	}
	return name, nil
}

func (p *planParser) pattern() (planPattern, error) {
	var pat planPattern
	switch p.peek() {
	case '[':
		p.pos++
		for p.peek() == '(' {
			p.pos++
			t, err := p.typeName()
			if err != nil {
				return pat, err
			}
			if err := p.expect(')'); err != nil {
				return pat, err
			}
			pat.types = append(pat.types, t)
		}
		if err := p.expect(']'); err != nil {
			return pat, err
		}
		if len(pat.types) == 0 {
			return pat, errors.New("empty alternation")
		}
	case '(':
		p.pos++
		t, err := p.typeName()
		if err != nil {
			return pat, err
		}
		pat.types = []string{t}
		for p.peek() != ')' {
			c, err := p.child()
			if err != nil {
				return pat, err
			}
			// The cursor matches distinct siblings in order; a plan
			// checks each child on its own, which is the same only when
			// no node can be both.
			for _, d := range pat.children {
				if d.field == c.field {
					return pat, fmt.Errorf("two children in field %q", c.field)
				}
			}
			pat.children = append(pat.children, c)
		}
		p.pos++
	default:
		return pat, errors.New("want a pattern")
	}
	var err error
	if pat.capture, err = p.capture(); err != nil {
		return pat, err
	}
	for _, t := range pat.types {
		if t == "_" {
			return pat, errors.New("wildcard pattern")
		}
	}
	return pat, nil
}

func (p *planParser) typeName() (string, error) {
	t, err := p.name()
	if err != nil {
		return "", err
	}
	if strings.Contains(t, ".") {
		return "", fmt.Errorf("node type %q", t)
	}
	return t, nil
}

func (p *planParser) child() (planChild, error) {
	var c planChild
	if b := p.peek(); b != '(' && b != '[' && b != '"' {
		f, err := p.name()
		if err != nil {
			return c, err
		}
		if err := p.expect(':'); err != nil {
			return c, err
		}
		c.field = f
	}
	var err error
	switch p.peek() {
	case '[':
		p.pos++
		for p.peek() != ']' {
			t, err := p.childType()
			if err != nil {
				return c, err
			}
			c.types = append(c.types, t)
		}
		p.pos++
		if len(c.types) == 0 {
			return c, errors.New("empty alternation")
		}
	default:
		t, err := p.childType()
		if err != nil {
			return c, err
		}
		c.types = []planType{t}
	}
	if q := p.peek(); q == '?' || q == '*' || q == '+' {
		c.quant = q
		p.pos++
	}
	if c.capture, err = p.capture(); err != nil {
		return c, err
	}
	return c, nil
}

// childType reads (type), (_) or "text".
func (p *planParser) childType() (planType, error) {
	switch p.peek() {
	case '"':
		p.pos++
		var b strings.Builder
		for {
			if p.eof() {
				return planType{}, errors.New("unterminated string")
			}
			c := p.src[p.pos]
			p.pos++
			if c == '"' {
				break
			}
			if c == '\\' {
				if p.eof() {
					return planType{}, errors.New("unterminated string")
				}
				switch c = p.src[p.pos]; c {
				case 'n':
					c = '\n'
				case 't':
					c = '\t'
				case 'r':
					c = '\r'
				case '0':
					c = 0
				}
				p.pos++
			}
			b.WriteByte(c)
		}
		if b.Len() == 0 {
			return planType{}, errors.New("empty string")
		}
		return planType{name: b.String(), anonymous: true}, nil
	case '(':
		p.pos++
		t, err := p.typeName()
		if err != nil {
			return planType{}, err
		}
		if p.peek() != ')' {
			return planType{}, errors.New("nested pattern")
		}
		p.pos++
		return planType{name: t}, nil
	default:
		return planType{}, errors.New("want (type) or \"text\"")
	}
}
