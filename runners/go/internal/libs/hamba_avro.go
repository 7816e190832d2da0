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
	"serbench/typed/androidusers"
	"serbench/typed/pbvsmsgpack"
)

// avro: hamba/avro v2 by reflection against the dataset .avsc, on the typed model (its
// struct fields carry the schema's field names). Avro enums map to Go strings and Avro int
// to Go int32, so S1 and S2's Test1 go through small mirror structs.
var hambaAvro = &harness.Serializer{
	Name: "avro", Format: "avro", Library: "github.com/hamba/avro/v2", Module: "github.com/hamba/avro/v2",
	Labels: []string{"binary", "schema-required", "reflective", "positional", "copying-decode"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return hambaUser(d)
		}
		text, pick, err := avsc(d.Model)
		if err != nil {
			return nil, err
		}
		schema, err := avro.Parse(text)
		if err != nil {
			return nil, err
		}
		if pick != "" {
			for _, s := range schema.(*avro.UnionSchema).Types() {
				if n, ok := s.(avro.NamedSchema); ok && n.Name() == pick {
					schema = s
				}
			}
		}
		to, from := func(m any) any { return m }, func(v any) any { return v }
		newValue := func() any { return d.New() }
		switch d.New().(type) { // the seeds' mirror structs; other built-ins bind their typed model
		case *[]androidusers.SampleData:
			to, from, newValue = avroToS1, avroFromS1, func() any { return &avroSampleList{} }
		case *pbvsmsgpack.Test1:
			to = func(m any) any { t := m.(*pbvsmsgpack.Test1); return &avroTest1{int32(t.A), int32(t.B)} }
			from = func(v any) any { t := v.(*avroTest1); return &pbvsmsgpack.Test1{A: uint32(t.A), B: uint32(t.B)} }
			newValue = func() any { return &avroTest1{} }
		case *pbvsmsgpack.Test4:
			to = func(m any) any {
				t := m.(*pbvsmsgpack.Test4)
				return &avroTest4{avroTest1{int32(t.T1.A), int32(t.T1.B)}, t.T2, t.T3}
			}
			from = func(v any) any {
				t := v.(*avroTest4)
				return &pbvsmsgpack.Test4{T1: pbvsmsgpack.Test1{A: uint32(t.T1.A), B: uint32(t.T1.B)}, T2: t.T2, T3: t.T3}
			}
			newValue = func() any { return &avroTest4{} }
		default:
			if err := hambaFit(d); err != nil {
				return nil, err
			}
			if k := d.Model.Types.Message.Kind; k == model.UList || k == model.UMap {
				// hamba writes an Avro array or map root from the slice or map, not a pointer to it
				to = func(m any) any { return reflect.ValueOf(m).Elem().Interface() }
			}
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

// hambaUser binds the user dataset's .avsc to its typed model.
func hambaUser(d *model.Dataset) (*harness.Codec, error) {
	s, why := d.User.SchemaFor("avsc", "avro")
	if why != "" {
		return nil, naErr(why)
	}
	if err := hambaFit(d); err != nil {
		return nil, err
	}
	text, err := os.ReadFile(s.Path)
	if err != nil {
		return nil, err
	}
	schema, err := avro.Parse(string(text))
	if err != nil {
		return nil, err
	}
	return reflectiveCodec(d, func(v any) ([]byte, error) { return avro.Marshal(schema, v) },
		func(b []byte, v any) error { return avro.Unmarshal(schema, b, v) }), nil
}

// hambaFit objects to types hamba cannot bind to the typed model without a mirror struct.
func hambaFit(d *model.Dataset) error {
	if p := model.FindType(d.Model.Types.Message, "$", func(t *model.UType) bool { return t.Kind == model.UEnum }); p != "" {
		return harness.NA("avro: %s is an enum: hamba/avro binds Avro enums to Go strings and the typed model holds ordinals; avro-dynamic carries it", p)
	}
	return nil
}

var genderSymbols = []string{"Female", "Male"}

type avroSample struct {
	ID       int64  `avro:"id"`
	Name     string `avro:"name"`
	Age      int32  `avro:"age"`
	Gender   string `avro:"gender"`
	IsMegane bool   `avro:"isMegane"`
}

type avroSampleList struct {
	SampleData []avroSample `avro:"sampleData"`
}

type avroTest1 struct {
	A int32 `avro:"a"`
	B int32 `avro:"b"`
}

type avroTest4 struct {
	T1 avroTest1         `avro:"t1"`
	T2 pbvsmsgpack.Test2 `avro:"t2"`
	T3 pbvsmsgpack.Test3 `avro:"t3"`
}

func avroToS1(m any) any {
	in := *m.(*[]androidusers.SampleData)
	out := &avroSampleList{make([]avroSample, len(in))}
	for i, r := range in {
		out.SampleData[i] = avroSample{r.ID, r.Name, r.Age, genderSymbols[r.Gender&1], r.IsMegane}
	}
	return out
}

func avroFromS1(v any) any {
	in := v.(*avroSampleList).SampleData
	out := make([]androidusers.SampleData, len(in))
	for i, r := range in {
		g := androidusers.Gender(0)
		if r.Gender == "Male" {
			g = 1
		}
		out[i] = androidusers.SampleData{ID: r.ID, Name: r.Name, Age: r.Age, Gender: g, IsMegane: r.IsMegane}
	}
	return &out
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
