package libs

import (
	"bytes"
	"encoding/gob"
	"math/big"
	"time"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// gob: encoding/gob, Go's own format. Every message is a complete gob stream (a fresh
// Encoder/Decoder, so its type descriptors are included), as a stored blob must be.
var gobCodec = &harness.Serializer{
	Name: "gob", Format: "gob", Library: "encoding/gob", Module: "encoding/gob",
	Labels: []string{"binary", "schemaless", "reflective", "map-layout", "platform-native", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return gobUser(d), nil
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
				v := model.New(d.Kind)
				err := gob.NewDecoder(r).Decode(v)
				return v, err
			},
		}, nil
	},
}

// The generic tree holds interface values; gob carries them for registered concrete types.
func init() {
	gob.Register(map[string]any{})
	gob.Register([]any{})
	gob.Register(time.Time{})
	gob.Register(new(big.Int))
}

// gobBox is the root of a user-dataset gob stream (gob's top-level value is a concrete type).
type gobBox struct{ V any }

func gobUser(d *model.Dataset) *harness.Codec {
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
	})
}
