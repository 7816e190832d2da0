package libs

import (
	"bytes"
	"reflect"

	"serbench/internal/harness"
	"serbench/internal/model"

	"github.com/vmihailenco/msgpack/v5"
)

// msgpack: vmihailenco/msgpack v5 by reflection, in the seed's positional layout
// (records as arrays, enum as ordinal, Test3 as a bare string: S1 is 383 bytes).
var vmsgpack = &harness.Serializer{
	Name: "msgpack", Format: "msgpack", Library: "github.com/vmihailenco/msgpack/v5", Module: "github.com/vmihailenco/msgpack/v5",
	Labels: []string{"binary", "schemaless", "reflective", "positional", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		w := &appendWriter{}
		enc := msgpack.NewEncoder(w)
		enc.UseArrayEncodedStructs(true)
		enc.UseCompactInts(true)
		r := &bytes.Reader{}
		dec := msgpack.NewDecoder(r)
		newValue := func() any { return model.New(d.Kind) }
		if d.Kind == model.UserKind {
			if err := unfit("msgpack", d, within64, nil); err != nil {
				return nil, err
			}
			t := d.User.Types.Message
			decode := func(src []byte) (any, int, error) {
				r.Reset(src)
				dec.Reset(r)
				v, err := dec.DecodeInterface()
				return model.Revive(t, v), len(src) - r.Len(), err
			}
			return &harness.Codec{
				Encode: func(dst []byte, msg any) ([]byte, error) {
					w.b = dst
					err := enc.Encode(msg)
					return w.b, err
				},
				Decode: func(src []byte) (any, error) { v, _, err := decode(src); return v, err },
				Next:   decode,
			}, nil
		}
		decode := func(src []byte) (any, int, error) {
			r.Reset(src)
			dec.Reset(r)
			v := newValue()
			err := dec.Decode(v)
			return v, len(src) - r.Len(), err
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				w.b = dst
				err := enc.Encode(msg)
				return w.b, err
			},
			Decode: func(src []byte) (any, error) { v, _, err := decode(src); return v, err },
			Next:   decode,
		}, nil
	},
}

func init() {
	// Test3 is a bare string in the seed's layout, not a one-element array.
	msgpack.Register(model.Test3{},
		func(e *msgpack.Encoder, v reflect.Value) error { return e.EncodeString(v.Field(0).String()) },
		func(d *msgpack.Decoder, v reflect.Value) error {
			s, err := d.DecodeString()
			v.Field(0).SetString(s)
			return err
		})
}

// appendWriter is an io.Writer appending to a reusable slice.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
