package libs

import (
	"serbench/internal/harness"
	"serbench/internal/model"

	"google.golang.org/protobuf/proto"
)

// protobuf: google.golang.org/protobuf with protoc-gen-go code from the dataset .proto
// files; user datasets through dynamicpb.
var protobuf = &harness.Serializer{
	Name: "protobuf", Format: "protobuf", Library: "google.golang.org/protobuf", Module: "google.golang.org/protobuf",
	UserNA: needsGenerated("protobuf", "protoc-gen-go message types"),
	Labels: []string{"binary", "schema-required", "generated", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		enc := proto.MarshalOptions{}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				m, err := toPB(msg)
				if err != nil {
					return dst, err
				}
				return enc.MarshalAppend(dst, m)
			},
			Decode: func(src []byte) (any, error) {
				m := newPB(d.Kind)
				if err := proto.Unmarshal(src, m); err != nil {
					return nil, err
				}
				return fromPB(m), nil
			},
		}, nil
	},
}
