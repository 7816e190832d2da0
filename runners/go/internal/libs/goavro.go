package libs

import (
	"github.com/linkedin/goavro/v2"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// goavro: linkedin/goavro v2. It has no struct binding: a codec compiled from the .avsc
// reads and writes generic datums (maps, slices, symbol strings, time.Time), so native
// values are converted to and from them inside the timed operation.
var goAvro = &harness.Serializer{
	Name: "goavro", Format: "avro", Library: "github.com/linkedin/goavro/v2", Module: "github.com/linkedin/goavro/v2",
	Labels: []string{"binary", "schema-required", "dynamic", "positional", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		var text string
		var to func(any) any
		var from func(any) (any, error)
		if d.Kind == model.UserKind {
			s, toU, fromU, err := avroUser(d, "goavro")
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
		codec, err := goavro.NewCodec(text)
		if err != nil {
			return nil, err
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) { return codec.BinaryFromNative(dst, to(msg)) },
			Decode: func(src []byte) (any, error) {
				v, _, err := codec.NativeFromBinary(src)
				if err != nil {
					return nil, err
				}
				return from(v)
			},
		}, nil
	},
}
