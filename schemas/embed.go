package schemas

import _ "embed"

// ManifestSchema is the JSON Schema of manifest.json.
//
//go:embed manifest.schema.json
var ManifestSchema []byte

// CLISchema is the JSON Schema of the store commands' --json answers: one
// definition each under $defs (transfer, listing, collection, checkup).
//
//go:embed cli.schema.json
var CLISchema []byte
