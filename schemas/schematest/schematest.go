// Package schematest validates JSON documents against snap's JSON Schemas,
// for the tests that hold outputs to their contracts.
package schematest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validate checks data against the definition ref (a JSON pointer such as
// "#/$defs/transfer", or "" for the whole schema) of schema, and fails t
// with the validator's explanation when it does not hold.
func Validate(t testing.TB, schema []byte, ref string, data []byte) {
	t.Helper()
	if err := Check(schema, ref, data); err != nil {
		t.Errorf("%s does not hold: %v\n%s", ref, err, data)
	}
}

// Check is Validate returning the error instead.
func Check(schema []byte, ref string, data []byte) error {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("schema.json", doc); err != nil {
		return err
	}
	sch, err := c.Compile("schema.json" + ref)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}
