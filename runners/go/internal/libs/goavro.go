package libs

import (
	"bytes"
	"encoding/json"

	"github.com/linkedin/goavro/v2"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// goavro: linkedin/goavro v2. It has no struct binding: a codec compiled from the .avsc
// reads and writes generic datums (maps, slices, symbol strings, time.Time), so native
// values are converted to and from them inside the timed operation.
var goAvro = &harness.Serializer{
	Name: "goavro", Format: "avro", Library: "github.com/linkedin/goavro/v2", Module: "github.com/linkedin/goavro/v2",
	Labels: []string{"binary", "schema-required", "dynamic", "positional", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		var text string
		var to func(any) any
		var from func(any) (any, error)
		if d.Kind == model.UserKind {
			s, toU, fromU, err := avroUser(d, "goavro")
			if err != nil {
				return nil, err
			}
			text, to = s, toU
			from = func(v any) (any, error) { return fromU(v), nil }
		} else {
			var err error
			if text, to, from, err = avroGeneric(d); err != nil {
				return nil, err
			}
		}
		codec, err := goavro.NewCodec(text)
		if err != nil {
			return nil, err
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) { return codec.BinaryFromNative(dst, to(msg)) },
			Decode: func(src []byte) (any, error) {
				v, _, err := codec.NativeFromBinary(src)
				if err != nil {
					return nil, err
				}
				return from(v)
			},
		}, nil
	},
}

// goavroWriteContainer writes an object container file with goavro's OCFWriter, from
// generic datums (avrocontainer.go).
func goavroWriteContainer(schema json.RawMessage, codec string, records json.RawMessage) ([]byte, error) {
	datums, err := datumsFromCanonical(schema, records, func(b []byte) any { return b })
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w, err := goavro.NewOCFWriter(goavro.OCFConfig{W: &buf, Schema: string(schema), CompressionName: codec})
	if err != nil {
		return nil, err
	}
	if err := w.Append(datums); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func goavroReadContainer(src []byte) (any, error) {
	r, err := goavro.NewOCFReader(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	var records []any
	for r.Scan() {
		v, err := r.Read()
		if err != nil {
			return nil, err
		}
		records = append(records, v)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return canonicalRecords(withFieldLogicalTypes(r.MetaData()[avroSchemaKey]), records), nil
}

// withFieldLogicalTypes moves a logicalType annotated on a field onto the field's
// int or long type, as goavro reads it (it hands such a field back as time.Duration or
// time.Time), so that the value is rendered as the integer on the wire in its unit.
func withFieldLogicalTypes(schema []byte) []byte {
	var doc any
	if json.Unmarshal(schema, &doc) != nil {
		return schema // canonicalRecords reports it
	}
	var walk func(x any)
	walk = func(x any) {
		switch v := x.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			if lt, ok := v["logicalType"].(string); ok && v["name"] != nil {
				if typ, _ := v["type"].(string); typ == "int" || typ == "long" {
					v["type"] = map[string]any{"type": typ, "logicalType": lt}
				}
			}
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		return schema
	}
	return out
}
