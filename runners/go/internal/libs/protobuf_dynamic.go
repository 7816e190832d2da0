package libs

import (
	"fmt"
	"os"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// protobuf-dynamic: google.golang.org/protobuf's dynamicpb on a user dataset's
// FileDescriptorSet (protodesc.NewFiles), no generated code. Record field k is proto field
// number k; a message that is not a record is wrapped as Root.value (protocol section 7).
// The tree <-> dynamic message conversion is part of each timed operation.
var protobufDynamic = &harness.Serializer{
	Name: "protobuf-dynamic", Format: "protobuf", Library: "google.golang.org/protobuf", Module: "google.golang.org/protobuf",
	Labels: []string{"binary", "schema-required", "dynamic", "copying-decode"},
	Applicable: func(*model.Typed) error {
		return harness.NA("protobuf-dynamic serves user datasets; the built-in datasets use generated code (serializer protobuf)")
	},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind != model.UserKind {
			return nil, harness.NA("protobuf-dynamic serves user datasets; the built-in datasets use generated code (serializer protobuf)")
		}
		s, why := d.User.SchemaFor("proto", "protobuf-dynamic")
		if why != "" {
			return nil, naErr(why)
		}
		md, err := loadDescriptor(s)
		if err != nil {
			return nil, err
		}
		root := d.User.Types.Message
		wrapped := root.Kind != model.URecord
		if wrapped {
			root = &model.UType{Kind: model.URecord, Name: "Root", Fields: []model.UField{{Key: "value", Type: root}}}
		}
		fill, read, err := pbRecord(root, md, "$")
		if err != nil {
			return nil, err
		}
		enc := proto.MarshalOptions{}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				if wrapped {
					msg = map[string]any{"value": msg}
				}
				m := dynamicpb.NewMessage(md)
				fill(m, msg.(map[string]any))
				return enc.MarshalAppend(dst, m)
			},
			Decode: func(src []byte) (any, error) {
				m := dynamicpb.NewMessage(md)
				if err := proto.Unmarshal(src, m); err != nil {
					return nil, err
				}
				v := read(m)
				if wrapped {
					return v["value"], nil
				}
				return v, nil
			},
		}, nil
	},
}

func loadDescriptor(s model.Schema) (protoreflect.MessageDescriptor, error) {
	raw, err := os.ReadFile(s.DescriptorSet)
	if err != nil {
		return nil, err
	}
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(raw, &fds); err != nil {
		return nil, fmt.Errorf("%s: %w", s.DescriptorSet, err)
	}
	files, err := protodesc.NewFiles(&fds)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.DescriptorSet, err)
	}
	name := protoreflect.FullName(s.Message)
	if n := len(fds.File); n > 0 && fds.File[n-1].GetPackage() != "" {
		name = protoreflect.FullName(fds.File[n-1].GetPackage() + "." + s.Message)
	}
	desc, err := files.FindDescriptorByName(name)
	if err != nil {
		return nil, fmt.Errorf("%s: message %s: %w", s.DescriptorSet, name, err)
	}
	md, ok := desc.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a message", name)
	}
	return md, nil
}

type pbFill func(m protoreflect.Message, v map[string]any)
type pbRead func(m protoreflect.Message) map[string]any

func pbRecord(rec *model.UType, md protoreflect.MessageDescriptor, path string) (pbFill, pbRead, error) {
	n := len(rec.Fields)
	fills := make([]func(m protoreflect.Message, v any), n)
	reads := make([]func(m protoreflect.Message) any, n)
	for i, f := range rec.Fields {
		fd := md.Fields().ByNumber(protoreflect.FieldNumber(i + 1))
		p := model.KeyPath(path, f.Key)
		if fd == nil {
			return nil, nil, fmt.Errorf("protobuf: %s: message %s has no field %d", p, md.FullName(), i+1)
		}
		var err error
		if fills[i], reads[i], err = pbField(f.Type, fd, p); err != nil {
			return nil, nil, err
		}
	}
	return func(m protoreflect.Message, v map[string]any) {
			for i, f := range rec.Fields {
				fills[i](m, v[f.Key])
			}
		}, func(m protoreflect.Message) map[string]any {
			out := make(map[string]any, n)
			for i, f := range rec.Fields {
				out[f.Key] = reads[i](m)
			}
			return out
		}, nil
}

// pbValue converts one singular value (scalar, enum or record) of type t.
func pbValue(t *model.UType, fd protoreflect.FieldDescriptor, path string) (func(protoreflect.Value, any) protoreflect.Value, func(protoreflect.Value) any, error) {
	if t.Kind == model.URecord {
		sub := fd.Message()
		if fd.IsMap() {
			sub = fd.MapValue().Message()
		}
		if sub == nil {
			return nil, nil, fmt.Errorf("protobuf: %s: record %s but field %s is not a message", path, t.Name, fd.FullName())
		}
		fill, read, err := pbRecord(t, sub, path)
		if err != nil {
			return nil, nil, err
		}
		return func(dst protoreflect.Value, v any) protoreflect.Value {
				fill(dst.Message(), v.(map[string]any))
				return dst
			}, func(v protoreflect.Value) any {
				return read(v.Message())
			}, nil
	}
	keep := func(_ protoreflect.Value, v any) protoreflect.Value { return protoreflect.ValueOf(v) }
	if t.Kind == model.UEnum {
		return func(_ protoreflect.Value, v any) protoreflect.Value {
				return protoreflect.ValueOfEnum(protoreflect.EnumNumber(v.(int32)))
			}, func(v protoreflect.Value) any {
				return int32(v.Enum())
			}, nil
	}
	switch t.Name {
	case "int32":
		return keep, func(v protoreflect.Value) any { return int32(v.Int()) }, nil
	case "int64":
		return keep, func(v protoreflect.Value) any { return v.Int() }, nil
	case "uint32":
		return keep, func(v protoreflect.Value) any { return uint32(v.Uint()) }, nil
	case "uint64":
		return keep, func(v protoreflect.Value) any { return v.Uint() }, nil
	case "float32":
		return keep, func(v protoreflect.Value) any { return float32(v.Float()) }, nil
	case "float64":
		return keep, func(v protoreflect.Value) any { return v.Float() }, nil
	case "bool":
		return keep, func(v protoreflect.Value) any { return v.Bool() }, nil
	case "string":
		return keep, func(v protoreflect.Value) any { return v.String() }, nil
	case "bytes":
		return keep, func(v protoreflect.Value) any { return v.Bytes() }, nil
	case "timestamp_ms":
		return func(_ protoreflect.Value, v any) protoreflect.Value {
				return protoreflect.ValueOfInt64(v.(time.Time).UnixMilli())
			}, func(v protoreflect.Value) any {
				return model.Millis(v.Int())
			}, nil
	}
	return nil, nil, naErr(fmt.Sprintf("protobuf: %s is %s, which the .proto cannot carry", path, t))
}

func pbField(t *model.UType, fd protoreflect.FieldDescriptor, path string) (func(protoreflect.Message, any), func(protoreflect.Message) any, error) {
	isNull := func(u *model.UType) bool {
		return u.Kind == model.UPrim && u.Name == "null" || u.Kind == model.UOptional && isNullType(u.Of)
	}
	switch {
	case isNull(t): // always null: a field with presence that is never set
		return func(protoreflect.Message, any) {}, func(protoreflect.Message) any { return nil }, nil
	case t.Kind == model.UList && isNull(t.Of): // only ever empty: a repeated field left empty
		return func(protoreflect.Message, any) {}, func(protoreflect.Message) any { return []any{} }, nil
	case t.Kind == model.UList:
		to, from, err := pbValue(t.Of, fd, path+"[*]")
		if err != nil {
			return nil, nil, err
		}
		record := t.Of.Kind == model.URecord
		return func(m protoreflect.Message, v any) {
				l, _ := v.([]any)
				if len(l) == 0 {
					return
				}
				list := m.Mutable(fd).List()
				for _, x := range l {
					var e protoreflect.Value
					if record {
						e = list.NewElement()
					}
					list.Append(to(e, x))
				}
			}, func(m protoreflect.Message) any {
				list := m.Get(fd).List()
				out := make([]any, list.Len())
				for i := range out {
					out[i] = from(list.Get(i))
				}
				return out
			}, nil
	case t.Kind == model.UMap:
		to, from, err := pbValue(t.Of, fd, path+"[*]")
		if err != nil {
			return nil, nil, err
		}
		record := t.Of.Kind == model.URecord
		return func(m protoreflect.Message, v any) {
				mp, _ := v.(map[string]any)
				if len(mp) == 0 {
					return
				}
				dst := m.Mutable(fd).Map()
				for k, x := range mp {
					var e protoreflect.Value
					if record {
						e = dst.NewValue()
					}
					dst.Set(protoreflect.ValueOfString(k).MapKey(), to(e, x))
				}
			}, func(m protoreflect.Message) any {
				src := m.Get(fd).Map()
				out := make(map[string]any, src.Len())
				src.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
					out[k.String()] = from(v)
					return true
				})
				return out
			}, nil
	}
	inner, optional := t, false
	if t.Kind == model.UOptional {
		inner, optional = t.Of, true
	}
	to, from, err := pbValue(inner, fd, path)
	if err != nil {
		return nil, nil, err
	}
	record := inner.Kind == model.URecord
	return func(m protoreflect.Message, v any) {
			if v == nil && optional {
				return
			}
			var e protoreflect.Value
			if record {
				e = m.NewField(fd)
			}
			m.Set(fd, to(e, v))
		}, func(m protoreflect.Message) any {
			if optional && !m.Has(fd) {
				return nil
			}
			return from(m.Get(fd))
		}, nil
}

func isNullType(u *model.UType) bool { return u.Kind == model.UPrim && u.Name == "null" }
