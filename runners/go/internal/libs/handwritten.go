package libs

import (
	"serbench/internal/harness"
	"serbench/internal/model"
)

// The hand-written baseline (the Parcelable stand-in): the code a programmer writes by hand
// for the dataset's types, generated here from types.json (tools/typegen/hw.go) in the
// layout of package hw, the Rust and C++ runners' bytes: little-endian fixed-width
// numbers, u32-length strings, u32-count lists and maps, presence bytes, no library.
var handwritten = &harness.Serializer{
	Name: "handwritten", Format: "custom-binary", Library: "encoding/binary", Module: "encoding/binary",
	Labels:     []string{"binary", "handwritten", "positional", "schema-required", "copying-decode"},
	Typed:      true,
	Applicable: handApplicable,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := handApplicable(d.Model); err != nil {
			return nil, err
		}
		h := d.Model.Hand
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) { return h.Encode(dst, msg), nil },
			Decode: h.Decode,
		}, nil
	},
}

// handApplicable: the layout has no value of any type and no integer beyond 64 bits.
func handApplicable(t *model.Typed) error {
	if t.Hand == nil {
		return harness.NA("%s", t.HandNA)
	}
	return nil
}
