package indexer

import (
	"errors"
	"reflect"
	"testing"
)

func TestParsePlan(t *testing.T) {
	got, err := parsePlan(`; a comment
(function_declaration
  name: (identifier) @func.name
  result: (_)? @func.result
  body: (block)?) @func
[(expression_case) (default_case)] @cond
(interface_type (type_elem) @telem)
(const_spec name: (identifier)+ @const.name) @const
(binary_expression operator: ["&&" "\\" "\""] right: [(_) (identifier)]? @cond)`)
	if err != nil {
		t.Fatal(err)
	}
	want := &plan{patterns: []planPattern{
		{types: []string{"function_declaration"}, capture: "func", children: []planChild{
			{field: "name", types: []planType{{name: "identifier"}}, capture: "func.name"},
			{field: "result", types: []planType{{name: "_"}}, quant: '?', capture: "func.result"},
			{field: "body", types: []planType{{name: "block"}}, quant: '?'},
		}},
		{types: []string{"expression_case", "default_case"}, capture: "cond"},
		{types: []string{"interface_type"}, children: []planChild{{types: []planType{{name: "type_elem"}}, capture: "telem"}}},
		{types: []string{"const_spec"}, capture: "const", children: []planChild{
			{field: "name", types: []planType{{name: "identifier"}}, quant: '+', capture: "const.name"},
		}},
		{types: []string{"binary_expression"}, children: []planChild{
			{field: "operator", types: []planType{{"&&", true}, {`\`, true}, {`"`, true}}},
			{field: "right", types: []planType{{name: "_"}, {name: "identifier"}}, quant: '?', capture: "cond"},
		}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// TestParsePlanRefuses lists what a plan does not hold: such queries stay
// on the query cursor.
func TestParsePlanRefuses(t *testing.T) {
	for _, src := range []string{
		`(call_expression function: (selector_expression field: (field_identifier) @m)) @call`, // nested
		`(block . (comment) @first)`,                     // anchor
		`((identifier) @x (#eq? @x "self"))`,             // predicate
		`(binary_expression operator: "+ @op)`,           // unterminated string
		`(call arguments: (argument_list (identifier)))`, // nested
		`(call [])`,                                         // empty alternation
		`(pair (identifier) @a (identifier) @b)`,            // two children, no field: one node could be both
		`(ternary consequence: (_) @a consequence: (_) @b)`, // one field twice
		`(function_declaration !body) @decl`,                // negated field
		`(_) @any`,                                          // wildcard pattern
		`(identifier) @a @b`,                                // two captures
		`(identifier`,                                       // unclosed
		`[(identifier) (field_identifier) @f] @x`,           // capture inside an alternation
	} {
		if _, err := parsePlan(src); !errors.Is(err, errUnplanned) {
			t.Errorf("%s: err %v, want errUnplanned", src, err)
		}
	}
}
