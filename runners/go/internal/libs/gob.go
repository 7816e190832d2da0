package libs

import (
	"bytes"
	"encoding/gob"

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
			return nil, harness.NA("gob: the generic value tree holds interface values, which gob only carries for registered concrete types")
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
