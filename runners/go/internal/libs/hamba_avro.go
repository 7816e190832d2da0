package libs

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// avro: hamba/avro v2 by reflection against the dataset .avsc, on the typed model (its
// struct fields carry the schema's field names). hamba binds Avro enums to Go strings and
// Avro int to int32 only, so where the .avsc holds those against the model's ordinals or
// other integers (S1's enum, S2's uint32 fields declared int), or wraps the message in a record,
// it binds typegen's generated mirror instead (model.Avro).
var hambaAvro = &harness.Serializer{
	Name: "avro", Format: "avro", Library: "github.com/hamba/avro/v2", Module: "github.com/hamba/avro/v2",
	Labels: []string{"binary", "schema-required", "reflective", "positional", "copying-decode"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		schema, err := hambaSchema(d)
		if err != nil {
			return nil, err
		}
		if d.Model.AvroNA != "" {
			return nil, naErr(d.Model.AvroNA)
		}
		to, from, newValue := func(m any) any { return m }, func(v any) any { return v }, d.New
		if b := d.Model.Avro; b != nil {
			to, from, newValue = b.To, b.From, b.New
		} else if k := d.Model.Types.Message.Kind; d.Kind != model.UserKind && (k == model.UList || k == model.UMap) {
			// hamba writes an Avro array or map root from the slice or map, not a pointer to it
			to = func(m any) any { return reflect.ValueOf(m).Elem().Interface() }
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				b, err := avro.Marshal(schema, to(msg))
				return harness.AppendBytes(dst, b), err
			},
			Decode: func(src []byte) (any, error) {
				v := newValue()
				if err := avro.Unmarshal(schema, src, v); err != nil {
					return nil, err
				}
				return from(v), nil
			},
		}, nil
	},
}

// hambaSchema parses the dataset's .avsc: a user dataset's from its registry, a built-in's
// embedded (the record of this message where the file is a union of several, S2).
func hambaSchema(d *model.Dataset) (avro.Schema, error) {
	if d.Kind == model.UserKind {
		s, why := d.User.SchemaFor("avsc", "avro")
		if why != "" {
			return nil, naErr(why)
		}
		text, err := os.ReadFile(s.Path)
		if err != nil {
			return nil, err
		}
		return avro.Parse(string(text))
	}
	text, pick, err := avsc(d.Model)
	if err != nil {
		return nil, err
	}
	schema, err := avro.Parse(text)
	if err != nil || pick == "" {
		return schema, err
	}
	for _, s := range schema.(*avro.UnionSchema).Types() {
		if n, ok := s.(avro.NamedSchema); ok && n.Name() == pick {
			return s, nil
		}
	}
	return schema, nil
}

// hambaWriteContainer writes an object container file with hamba/avro's ocf package,
// from generic datums (avrocontainer.go).
func hambaWriteContainer(schema json.RawMessage, codec string, records json.RawMessage) ([]byte, error) {
	datums, err := datumsFromCanonical(schema, records, fixedArray)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(string(schema), &buf, ocf.WithCodec(ocf.CodecName(codec)),
		ocf.WithEncoderSchemaCache(&avro.SchemaCache{}))
	if err != nil {
		return nil, err
	}
	for _, d := range datums {
		if err := enc.Encode(d); err != nil {
			return nil, err
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func hambaReadContainer(src []byte) (any, error) {
	dec, err := ocf.NewDecoder(bytes.NewReader(src), ocf.WithDecoderSchemaCache(&avro.SchemaCache{}))
	if err != nil {
		return nil, err
	}
	var records []any
	for dec.HasNext() {
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		records = append(records, v)
	}
	if err := dec.Error(); err != nil {
		return nil, err
	}
	return canonicalRecords(dec.Metadata()[avroSchemaKey], records), nil
}

// fixedArray holds a fixed value as hamba/avro's generic datum does: a [N]byte array.
func fixedArray(b []byte) any {
	v := reflect.New(reflect.ArrayOf(len(b), reflect.TypeFor[byte]())).Elem()
	reflect.Copy(v, reflect.ValueOf(b))
	return v.Interface()
}
