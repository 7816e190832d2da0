package libs

import (
	"google.golang.org/protobuf/proto"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// protobuf: google.golang.org/protobuf with protoc-gen-go code from the dataset .proto
// files (the built-ins' compiled by tools/gen/gen.sh, a user dataset's by tools/typegen),
// converted to and from the typed model by the code typegen generates beside it.
var protobuf = &harness.Serializer{
	Name: "protobuf", Format: "protobuf", Library: "google.golang.org/protobuf", Module: "google.golang.org/protobuf",
	Labels: []string{"binary", "schema-required", "generated", "copying-decode"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		bridge, err := protoBridge("protobuf", d)
		if err != nil {
			return nil, err
		}
		enc := proto.MarshalOptions{}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				return enc.MarshalAppend(dst, bridge.To(msg))
			},
			Decode: func(src []byte) (any, error) {
				m := bridge.New()
				if err := proto.Unmarshal(src, m); err != nil {
					return nil, err
				}
				return bridge.From(m), nil
			},
		}, nil
	},
}

// protoBridge is the typed model's conversion to protoc-gen-go messages; not applicable
// when the dataset has no usable .proto.
func protoBridge(name string, d *model.Dataset) (*model.Proto, error) {
	if d.Kind == model.UserKind {
		if _, why := d.User.SchemaFor("proto", name); why != "" {
			return nil, naErr(why)
		}
	}
	if d.Model.Proto == nil {
		return nil, harness.NA("%s", d.Model.ProtoNA)
	}
	return d.Model.Proto, nil
}
