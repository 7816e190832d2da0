package libs

import (
	"github.com/hamba/avro/v2"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// avro-dynamic: hamba/avro v2's generic API (schema parsed at run time, datums as maps
// and slices, no Go structs), on the built-in datasets and on user datasets' .avsc.
var avroDynamic = &harness.Serializer{
	Name: "avro-dynamic", Format: "avro", Library: "github.com/hamba/avro/v2", Module: "github.com/hamba/avro/v2",
	Labels: []string{"binary", "schema-required", "dynamic", "positional", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		var text string
		var to func(any) any
		var from func(any) (any, error)
		if d.Kind == model.UserKind {
			s, toU, fromU, err := avroUser(d, "avro-dynamic")
			if err != nil {
				return nil, err
			}
			text, to = s, toU
			from = func(v any) (any, error) { return fromU(v), nil }
		} else {
			var err error
			if text, to, from, err = avroGeneric(d); err != nil {
				return nil, err
			}
		}
		schema, err := avro.ParseWithCache(text, "", &avro.SchemaCache{}) // user schemas may reuse names
		if err != nil {
			return nil, err
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				b, err := avro.Marshal(schema, to(msg))
				return harness.AppendBytes(dst, b), err
			},
			Decode: func(src []byte) (any, error) {
				var v any
				if err := avro.Unmarshal(schema, src, &v); err != nil {
					return nil, err
				}
				return from(v)
			},
		}, nil
	},
}
