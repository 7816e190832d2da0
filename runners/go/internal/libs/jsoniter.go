package libs

import (
	jsoniter "github.com/json-iterator/go"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// jsoniter: json-iterator/go in its encoding/json-compatible configuration.
var jsonIter = &harness.Serializer{
	Name: "jsoniter", Format: "json", Library: "github.com/json-iterator/go", Module: "github.com/json-iterator/go",
	Labels: []string{"text", "schemaless", "reflective", "map-layout", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		api := jsoniter.ConfigCompatibleWithStandardLibrary
		if d.Kind == model.UserKind {
			exact := jsoniter.Config{EscapeHTML: true, SortMapKeys: true, ValidateJsonRawMessage: true, UseNumber: true}.Froze()
			return jsonUser(d, "jsoniter", api.Marshal, func(src []byte, v *any) error { return exact.Unmarshal(src, v) })
		}
		return reflectiveCodec(d, api.Marshal, api.Unmarshal), nil
	},
}
