package libs

import (
	"github.com/hamba/avro/v2"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// avro: hamba/avro v2 by reflection against the dataset .avsc. Avro enums map to Go
// strings and Avro int to Go int32, so S1 and S2's Test1 go through small mirror structs.
var hambaAvro = &harness.Serializer{
	Name: "avro", Format: "avro", Library: "github.com/hamba/avro/v2", Module: "github.com/hamba/avro/v2",
	UserNA: "avro: needs Go structs written for the dataset's types (hamba/avro binds struct fields by reflection); user datasets go through avro-dynamic (same library, generic maps) or goavro",
	Labels: []string{"binary", "schema-required", "reflective", "positional", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return nil, harness.NA("avro: user datasets are not implemented in the Go runner")
		}
		text, pick, err := avsc(d.Kind)
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
		newValue := func() any { return model.New(d.Kind) }
		switch d.Kind {
		case model.LogRecords:
			to = func(m any) any { return *m.(*[]model.TestClass) }
		case model.OneMbDict:
			to = func(m any) any { return *m.(*map[string]string) }
		case model.AndroidUsers:
			to, from, newValue = avroToS1, avroFromS1, func() any { return &avroSampleList{} }
		case model.Test1Kind:
			to = func(m any) any { t := m.(*model.Test1); return &avroTest1{int32(t.A), int32(t.B)} }
			from = func(v any) any { t := v.(*avroTest1); return &model.Test1{A: uint32(t.A), B: uint32(t.B)} }
			newValue = func() any { return &avroTest1{} }
		case model.Test4Kind:
			to = func(m any) any {
				t := m.(*model.Test4)
				return &avroTest4{avroTest1{int32(t.T1.A), int32(t.T1.B)}, t.T2, t.T3}
			}
			from = func(v any) any {
				t := v.(*avroTest4)
				return &model.Test4{T1: model.Test1{A: uint32(t.T1.A), B: uint32(t.T1.B)}, T2: t.T2, T3: t.T3}
			}
			newValue = func() any { return &avroTest4{} }
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
	T1 avroTest1   `avro:"t1"`
	T2 model.Test2 `avro:"t2"`
	T3 model.Test3 `avro:"t3"`
}

func avroToS1(m any) any {
	in := *m.(*[]model.SampleData)
	out := &avroSampleList{make([]avroSample, len(in))}
	for i, r := range in {
		out.SampleData[i] = avroSample{r.ID, r.Name, r.Age, genderSymbols[r.Gender&1], r.IsMegane}
	}
	return out
}

func avroFromS1(v any) any {
	in := v.(*avroSampleList).SampleData
	out := make([]model.SampleData, len(in))
	for i, r := range in {
		g := model.Gender(0)
		if r.Gender == "Male" {
			g = 1
		}
		out[i] = model.SampleData{ID: r.ID, Name: r.Name, Age: r.Age, Gender: g, IsMegane: r.IsMegane}
	}
	return &out
}
