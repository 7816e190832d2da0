package libs

import (
	"fmt"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// msgp: tinylib/msgp code generated at build time for the typed model of every dataset
// (tools/typegen; positional, the seed's layout: S1 is 383 bytes).
var msgpCodec = &harness.Serializer{
	Name: "msgp", Format: "msgpack", Library: "github.com/tinylib/msgp", Module: "github.com/tinylib/msgp",
	Labels:         []string{"binary", "schema-required", "generated", "positional", "copying-decode", "enum-as-ordinal", "timestamp-native"},
	Typed:          true,
	SelfDelimiting: true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		view := d.Model.Msgp
		if view == nil {
			return nil, harness.NA("%s", d.Model.MsgpNA)
		}
		if err := positionalFit("msgp", d); err != nil {
			return nil, err
		}
		next := func(src []byte) (any, int, error) {
			v := d.New()
			rest, err := view(v).UnmarshalMsg(src)
			return v, len(src) - len(rest), err
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) { return view(msg).MarshalMsg(dst) },
			Decode: func(src []byte) (any, error) {
				v, n, err := next(src)
				if err == nil && n != len(src) {
					err = fmt.Errorf("%d trailing bytes", len(src)-n)
				}
				return v, err
			},
			Next: next,
		}, nil
	},
}
