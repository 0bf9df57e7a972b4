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
// children, each child a field or none, a type or a wildcard, a
// quantifier and a capture:
//
//	(function_declaration name: (identifier) @func.name body: (block)? @func.body) @func
//	[(expression_case) (default_case)] @cond
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
	field   string // "" for any child
	typ     string // "_" for any named node
	quant   byte   // 0, '?', '*' or '+'
	capture string
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
	if p.peek() != '(' {
		f, err := p.name()
		if err != nil {
			return c, err
		}
		if err := p.expect(':'); err != nil {
			return c, err
		}
		c.field = f
	}
	if err := p.expect('('); err != nil {
		return c, err
	}
	t, err := p.typeName()
	if err != nil {
		return c, err
	}
	c.typ = t
	if err := p.expect(')'); err != nil {
		return c, errors.New("nested pattern")
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
