package libs

import (
	"bytes"
	"encoding/json"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// json: encoding/json of the standard library (records as objects, date-times RFC 3339).
var jsonStd = &harness.Serializer{
	Name: "json", Format: "json", Library: "encoding/json", Module: "encoding/json",
	Labels: []string{"text", "schemaless", "reflective", "map-layout", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return jsonUser(d, "json", json.Marshal, func(src []byte, v *any) error {
				dec := json.NewDecoder(bytes.NewReader(src))
				dec.UseNumber()
				return dec.Decode(v)
			})
		}
		return reflectiveCodec(d, json.Marshal, json.Unmarshal), nil
	},
}

// reflectiveCodec wraps a Marshal/Unmarshal pair working on native values by reflection.
func reflectiveCodec(d *model.Dataset, marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) *harness.Codec {
	return &harness.Codec{
		Encode: func(dst []byte, msg any) ([]byte, error) {
			b, err := marshal(msg)
			return harness.AppendBytes(dst, b), err
		},
		Decode: func(src []byte) (any, error) {
			v := model.New(d.Kind)
			if err := unmarshal(src, v); err != nil {
				return nil, err
			}
			return v, nil
		},
	}
}
