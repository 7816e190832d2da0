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
	UserNA:     "memcpy: copies the bytes of the hand-written writer (handwritten), which exists for the seed datasets only",
	Applicable: memcpyApplicable,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return nil, harness.NA("memcpy: its bytes come from the hand-written writer, which has no user-dataset code")
		}
		if err := memcpyApplicable(d.Model); err != nil {
			return nil, err
		}
		shape := d.New()
		pre := make([][]byte, len(d.Items))
		index := make(map[any]int, len(d.Items))
		for i, it := range d.Items {
			b, err := HandEncode(nil, it)
			if err != nil {
				return nil, err
			}
			pre[i] = b
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
			Verify: func(src []byte) (any, error) { return HandDecode(shape, src) },
		}, nil
	},
}

// memcpyApplicable: the bytes come from the hand-written writer, which exists per seed dataset.
func memcpyApplicable(t *model.Typed) error {
	if handApplicable(t) != nil {
		return harness.NA("memcpy: copies the bytes of the hand-written writer (handwritten), which is written per seed dataset; none for %s", t.Dataset)
	}
	return nil
}
