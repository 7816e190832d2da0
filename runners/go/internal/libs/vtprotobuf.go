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
// on the same generated messages as protobuf.
var vtprotobuf = &harness.Serializer{
	Name: "vtprotobuf", Format: "protobuf", Library: "github.com/planetscale/vtprotobuf", Module: "github.com/planetscale/vtprotobuf",
	UserNA: needsGenerated("vtprotobuf", "protoc-gen-go-vtproto fast paths"),
	Labels: []string{"binary", "schema-required", "generated", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return nil, harness.NA("vtprotobuf: generated code only; user datasets go through the protobuf row (dynamicpb)")
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				pm, err := toPB(msg)
				if err != nil {
					return dst, err
				}
				m := pm.(vtMessage)
				n := m.SizeVT()
				dst = grow(dst, n)
				_, err = m.MarshalToSizedBufferVT(dst[len(dst)-n:])
				return dst, err
			},
			Decode: func(src []byte) (any, error) {
				m := newPB(d.Kind)
				if err := m.(vtMessage).UnmarshalVT(src); err != nil {
					return nil, err
				}
				return fromPB(m), nil
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
