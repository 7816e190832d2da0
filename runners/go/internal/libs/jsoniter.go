package libs

import (
	jsoniter "github.com/json-iterator/go"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// jsoniter: json-iterator/go in its encoding/json-compatible configuration, on the typed model.
var jsonIter = &harness.Serializer{
	Name: "jsoniter", Format: "json", Library: "github.com/json-iterator/go", Module: "github.com/json-iterator/go",
	Labels: []string{"text", "schemaless", "reflective", "map-layout", "copying-decode", "enum-as-ordinal", "timestamp-as-text"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := typedFit("jsoniter", d, noNonFinite); err != nil {
			return nil, err
		}
		api := jsoniter.ConfigCompatibleWithStandardLibrary
		return reflectiveCodec(d, api.Marshal, api.Unmarshal), nil
	},
}

// jsoniter-dynamic: the same library on the generic value tree, numbers decoded exactly.
var jsonIterDynamic = dynamicRow(jsonIter, func(d *model.Dataset) (*harness.Codec, error) {
	exact := jsoniter.Config{EscapeHTML: true, SortMapKeys: true, ValidateJsonRawMessage: true, UseNumber: true}.Froze()
	return jsonUser(d, "jsoniter", jsoniter.ConfigCompatibleWithStandardLibrary.Marshal,
		func(src []byte, v *any) error { return exact.Unmarshal(src, v) })
})
