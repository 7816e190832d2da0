package libs

import (
	"serbench/internal/harness"
	"serbench/internal/model"
)

// memcpy: the copy floor. Encode appends each message's prepared hand-written bytes with
// one copy; decode copies each message's bytes into a scratch buffer without parsing
// (the round-trip check reads them with the hand-written reader).
var memcpy = &harness.Serializer{
	Name: "memcpy", Format: "custom-binary", Library: "serbench", Labels: []string{"baseline"},
	Typed:      true,
	Applicable: memcpyApplicable,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := memcpyApplicable(d.Model); err != nil {
			return nil, err
		}
		h := d.Model.Hand
		pre := make([][]byte, len(d.Items))
		index := make(map[any]int, len(d.Items))
		for i, it := range d.Items {
			pre[i] = h.Encode(nil, it)
			index[it] = i
		}
		next := 0
		var scratch []byte
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				i := next
				if d.Items[i] != msg {
					i = index[msg]
				}
				if next = i + 1; next == len(pre) {
					next = 0
				}
				return append(dst, pre[i]...), nil
			},
			Decode: func(src []byte) (any, error) {
				scratch = append(scratch[:0], src...)
				return nil, nil
			},
			Verify: h.Decode,
		}, nil
	},
}

// memcpyApplicable: the bytes come from the handwritten writer.
func memcpyApplicable(t *model.Typed) error {
	if t.Hand == nil {
		return harness.NA("memcpy: copies the bytes of the handwritten row, which cannot carry this dataset (%s)", t.HandNA)
	}
	return nil
}
