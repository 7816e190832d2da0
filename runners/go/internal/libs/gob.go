package libs

import (
	"bytes"
	"encoding/gob"
	"math/big"
	"time"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// gob: encoding/gob, Go's own format, on the typed model. Every message is a complete gob
// stream (a fresh Encoder/Decoder, so its type descriptors are included), as a stored
// blob must be.
var gobCodec = &harness.Serializer{
	Name: "gob", Format: "gob", Library: "encoding/gob", Module: "encoding/gob",
	Labels: []string{"binary", "schemaless", "reflective", "map-layout", "platform-native", "copying-decode"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := typedFit("gob", d, nil); err != nil {
			return nil, err
		}
		w := &appendWriter{}
		r := &bytes.Reader{}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				w.b = dst
				err := gob.NewEncoder(w).Encode(msg)
				return w.b, err
			},
			Decode: func(src []byte) (any, error) {
				r.Reset(src)
				v := d.New()
				err := gob.NewDecoder(r).Decode(v)
				return v, err
			},
		}, nil
	},
}

// gob-dynamic: the same library on the generic value tree, its root boxed in a struct.
var gobDynamic = dynamicRow(gobCodec, func(d *model.Dataset) (*harness.Codec, error) {
	w := &appendWriter{}
	r := &bytes.Reader{}
	return userCodec(d, func(msg any) ([]byte, error) {
		w.b = nil
		err := gob.NewEncoder(w).Encode(gobBox{msg})
		return w.b, err
	}, func(src []byte) (any, error) {
		r.Reset(src)
		var box gobBox
		err := gob.NewDecoder(r).Decode(&box)
		return box.V, err
	}), nil
})

// The generic tree (and `any` fields of typed models) holds interface values; gob carries
// them for registered concrete types.
func init() {
	gob.Register(map[string]any{})
	gob.Register([]any{})
	gob.Register(time.Time{})
	gob.Register(new(big.Int))
}

// gobBox is the root of a generic-tree gob stream (gob's top-level value is a concrete type).
type gobBox struct{ V any }
