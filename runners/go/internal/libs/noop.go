package libs

import (
	"serbench/internal/harness"
	"serbench/internal/model"
)

// noop: encode hands back a buffer prepared before timing, decode the original object,
// through the same loop, framing and sinks as every serializer: the harness overhead.
var noop = &harness.Serializer{
	Name: "noop", Format: "none", Library: "serbench", Labels: []string{"baseline"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		prepared := []byte{}
		next := 0
		return &harness.Codec{
			Encode: func(dst []byte, _ any) ([]byte, error) { return harness.AppendBytes(dst, prepared), nil },
			Decode: func([]byte) (any, error) {
				v := d.Items[next]
				if next++; next == len(d.Items) {
					next = 0
				}
				return v, nil
			},
		}, nil
	},
}
