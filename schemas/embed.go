package schemas

import _ "embed"

// ManifestSchema is the JSON Schema of manifest.json.
//
//go:embed manifest.schema.json
var ManifestSchema []byte
