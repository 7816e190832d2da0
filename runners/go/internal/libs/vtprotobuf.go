package libs

import (
	"serbench/internal/harness"
	"serbench/internal/model"
)

type vtMessage interface {
	SizeVT() int
	MarshalToSizedBufferVT([]byte) (int, error)
	UnmarshalVT([]byte) error
}

// vtprotobuf: the generated fast paths of protoc-gen-go-vtproto (MarshalVT/UnmarshalVT)
// on the same generated messages and conversions as protobuf.
var vtprotobuf = &harness.Serializer{
	Name: "vtprotobuf", Format: "protobuf", Library: "github.com/planetscale/vtprotobuf", Module: "github.com/planetscale/vtprotobuf",
	Labels: []string{"binary", "schema-required", "generated", "copying-decode"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		bridge, err := protoBridge("vtprotobuf", d)
		if err != nil {
			return nil, err
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				m := bridge.To(msg).(vtMessage)
				n := m.SizeVT()
				dst = grow(dst, n)
				_, err := m.MarshalToSizedBufferVT(dst[len(dst)-n:])
				return dst, err
			},
			Decode: func(src []byte) (any, error) {
				m := bridge.New()
				if err := m.(vtMessage).UnmarshalVT(src); err != nil {
					return nil, err
				}
				return bridge.From(m), nil
			},
		}, nil
	},
}

// grow extends dst by n bytes (contents of the new bytes unspecified).
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) < n {
		nb := make([]byte, len(dst), 2*cap(dst)+n)
		copy(nb, dst)
		dst = nb
	}
	return dst[:len(dst)+n]
}
