package libs

import (
	"reflect"

	"github.com/fxamacker/cbor/v2"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// cbor: fxamacker/cbor v2 by reflection; records as maps keyed by field name, date-times
// as tag 0 (RFC 3339) strings.
var cborCodec = &harness.Serializer{
	Name: "cbor", Format: "cbor", Library: "github.com/fxamacker/cbor/v2", Module: "github.com/fxamacker/cbor/v2",
	Labels: []string{"binary", "schemaless", "reflective", "map-layout", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		em, err := cbor.EncOptions{Time: cbor.TimeRFC3339Nano, TimeTag: cbor.EncTagRequired}.EncMode()
		if err != nil {
			return nil, err
		}
		dm, err := cbor.DecOptions{MaxArrayElements: 1 << 30, MaxMapPairs: 1 << 30,
			DefaultMapType: reflect.TypeOf(map[string]any(nil))}.DecMode()
		if err != nil {
			return nil, err
		}
		if d.Kind == model.UserKind {
			return userCodec(d, em.Marshal, func(src []byte) (any, error) {
				var v any
				err := dm.Unmarshal(src, &v)
				return v, err
			}), nil
		}
		return reflectiveCodec(d, em.Marshal, dm.Unmarshal), nil
	},
}
