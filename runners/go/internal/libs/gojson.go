package libs

import (
	"bytes"

	gojson "github.com/goccy/go-json"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// go-json: goccy/go-json, a drop-in encoding/json replacement, on the typed model.
var goJSON = &harness.Serializer{
	Name: "go-json", Format: "json", Library: "github.com/goccy/go-json", Module: "github.com/goccy/go-json",
	Labels: []string{"text", "schemaless", "reflective", "map-layout", "copying-decode", "enum-as-ordinal", "timestamp-as-text"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := typedFit("go-json", d, noNonFinite); err != nil {
			return nil, err
		}
		return reflectiveCodec(d, gojson.Marshal, gojson.Unmarshal), nil
	},
}

// go-json-dynamic: the same library on the generic value tree.
var goJSONDynamic = dynamicRow(goJSON, func(d *model.Dataset) (*harness.Codec, error) {
	return jsonUser(d, "go-json", gojson.Marshal, func(src []byte, v *any) error {
		dec := gojson.NewDecoder(bytes.NewReader(src))
		dec.UseNumber()
		return dec.Decode(v)
	})
})
