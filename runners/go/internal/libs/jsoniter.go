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
		return reflectiveCodec(d, api.Marshal, api.Unmarshal), nil
	},
}
