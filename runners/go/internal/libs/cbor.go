package libs

import (
	"reflect"

	"github.com/fxamacker/cbor/v2"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// cbor: fxamacker/cbor v2 by reflection on the typed model; records as maps keyed by field
// name, date-times as tag 0 (RFC 3339) strings, big integers as bignums.
var cborCodec = &harness.Serializer{
	Name: "cbor", Format: "cbor", Library: "github.com/fxamacker/cbor/v2", Module: "github.com/fxamacker/cbor/v2",
	Labels: []string{"binary", "schemaless", "reflective", "map-layout", "copying-decode", "enum-as-ordinal", "timestamp-native"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := typedFit("cbor", d, nil); err != nil {
			return nil, err
		}
		em, dm, err := cborModes()
		if err != nil {
			return nil, err
		}
		return reflectiveCodec(d, em.Marshal, dm.Unmarshal), nil
	},
}

// cbor-dynamic: the same library on the generic value tree.
var cborDynamic = dynamicRow(cborCodec, func(d *model.Dataset) (*harness.Codec, error) {
	em, dm, err := cborModes()
	if err != nil {
		return nil, err
	}
	return userCodec(d, em.Marshal, func(src []byte) (any, error) {
		var v any
		err := dm.Unmarshal(src, &v)
		return v, err
	}), nil
})

func cborModes() (cbor.EncMode, cbor.DecMode, error) {
	em, err := cbor.EncOptions{Time: cbor.TimeRFC3339Nano, TimeTag: cbor.EncTagRequired}.EncMode()
	if err != nil {
		return nil, nil, err
	}
	dm, err := cbor.DecOptions{MaxArrayElements: 1 << 30, MaxMapPairs: 1 << 30,
		DefaultMapType: reflect.TypeOf(map[string]any(nil))}.DecMode()
	return em, dm, err
}
