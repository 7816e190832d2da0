package libs

import (
	"bytes"
	"encoding/json"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// json: encoding/json of the standard library on the typed model (records as objects,
// date-times RFC 3339).
var jsonStd = &harness.Serializer{
	Name: "json", Format: "json", Library: "encoding/json", Module: "encoding/json",
	Labels: []string{"text", "schemaless", "reflective", "map-layout", "copying-decode", "enum-as-ordinal", "timestamp-as-text"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := typedFit("json", d, noNonFinite); err != nil {
			return nil, err
		}
		return reflectiveCodec(d, json.Marshal, json.Unmarshal), nil
	},
}

// json-dynamic: encoding/json on the generic value tree (map[string]any, []any).
var jsonStdDynamic = dynamicRow(jsonStd, func(d *model.Dataset) (*harness.Codec, error) {
	return jsonUser(d, "json", json.Marshal, func(src []byte, v *any) error {
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.UseNumber()
		return dec.Decode(v)
	})
})

// reflectiveCodec wraps a Marshal/Unmarshal pair working on the typed model by reflection.
func reflectiveCodec(d *model.Dataset, marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) *harness.Codec {
	return &harness.Codec{
		Encode: func(dst []byte, msg any) ([]byte, error) {
			b, err := marshal(msg)
			return harness.AppendBytes(dst, b), err
		},
		Decode: func(src []byte) (any, error) {
			v := d.New()
			if err := unmarshal(src, v); err != nil {
				return nil, err
			}
			return v, nil
		},
	}
}
