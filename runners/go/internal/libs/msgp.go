package libs

import (
	"fmt"

	"github.com/tinylib/msgp/msgp"

	"serbench/internal/harness"
	"serbench/internal/model"
)

type msgpType interface {
	msgp.Marshaler
	msgp.Unmarshaler
}

// msgp: tinylib/msgp code generated at build time from the model types (positional,
// the seed's layout: S1 is 383 bytes).
var msgpCodec = &harness.Serializer{
	Name: "msgp", Format: "msgpack", Library: "github.com/tinylib/msgp", Module: "github.com/tinylib/msgp",
	UserNA: needsGenerated("msgp", "the msgp tool's per-type methods"),
	Labels: []string{"binary", "schema-required", "generated", "positional", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return nil, harness.NA("msgp: generated code only; user datasets go through the msgpack row")
		}
		next := func(src []byte) (any, int, error) {
			v := model.New(d.Kind)
			rest, err := asMsgp(v).UnmarshalMsg(src)
			return v, len(src) - len(rest), err
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) { return asMsgp(msg).MarshalMsg(dst) },
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

// asMsgp views a native message as its generated msgp type (a pointer conversion).
func asMsgp(msg any) msgpType {
	switch m := msg.(type) {
	case *[]model.SampleData:
		return (*model.SampleList)(m)
	case *[]model.TestClass:
		return (*model.TestClassList)(m)
	case *map[string]string:
		return (*model.Dict)(m)
	case msgpType:
		return m
	}
	panic(fmt.Sprintf("msgp: no generated code for %T", msg))
}
