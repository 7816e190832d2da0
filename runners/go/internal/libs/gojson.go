package libs

import (
	"bytes"

	gojson "github.com/goccy/go-json"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// go-json: goccy/go-json, a drop-in encoding/json replacement.
var goJSON = &harness.Serializer{
	Name: "go-json", Format: "json", Library: "github.com/goccy/go-json", Module: "github.com/goccy/go-json",
	Labels: []string{"text", "schemaless", "reflective", "map-layout", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return jsonUser(d, "go-json", gojson.Marshal, func(src []byte, v *any) error {
				dec := gojson.NewDecoder(bytes.NewReader(src))
				dec.UseNumber()
				return dec.Decode(v)
			})
		}
		return reflectiveCodec(d, gojson.Marshal, gojson.Unmarshal), nil
	},
}
