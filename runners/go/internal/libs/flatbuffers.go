package libs

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// FlatBuffers (google/flatbuffers Go runtime, code from flatc 25 at build time, glue from
// typegen for every dataset, built-in or user). Two rows:
// "flatbuffers" decodes every field into the native types; "flatbuffers-lazy" reads every
// field in place through the generated accessors and builds nothing. The Go runtime has
// no verifier: both trust their input.
var flatbuffersFull = &harness.Serializer{
	Name: "flatbuffers", Format: "flatbuffers", Library: "github.com/google/flatbuffers", Module: "github.com/google/flatbuffers",
	Typed:      true,
	Applicable: fbApplicable,
	Labels:     []string{"binary", "schema-required", "generated", "copying-decode", "unvalidated"},
	Codec:      func(d *model.Dataset) (*harness.Codec, error) { return fbCodec(d, false) },
}

var flatbuffersLazy = &harness.Serializer{
	Name: "flatbuffers-lazy", Format: "flatbuffers", Library: "github.com/google/flatbuffers", Module: "github.com/google/flatbuffers",
	Typed:      true,
	Applicable: fbApplicable,
	Labels:     []string{"binary", "schema-required", "generated", "zero-copy-decode", "lazy-access", "unvalidated"},
	Codec:      func(d *model.Dataset) (*harness.Codec, error) { return fbCodec(d, true) },
}

// fbApplicable: a dataset whose glue typegen generated (typed/<dataset>/fb.go).
func fbApplicable(t *model.Typed) error {
	if t.FlatBuffers != nil {
		return nil
	}
	return harness.NA("%s", t.FlatBuffersNA)
}

func fbCodec(d *model.Dataset, lazy bool) (*harness.Codec, error) {
	if d.Kind == model.UserKind { // the schema serbench wrote, or why there is none
		if _, why := d.User.SchemaFor("fbs", "flatbuffers"); why != "" {
			return nil, naErr(why)
		}
	}
	if err := fbApplicable(d.Model); err != nil {
		return nil, err
	}
	return fbGenerated(d.Model.FlatBuffers, lazy), nil
}

// fbGenerated is the codec of a dataset through typegen's glue (typed/<dataset>/fb.go).
func fbGenerated(g *model.FlatBuffers, lazy bool) *harness.Codec {
	b := flatbuffers.NewBuilder(1024)
	full := func(src []byte) (any, error) { return g.Decode(src), nil }
	c := &harness.Codec{
		Encode: func(dst []byte, msg any) ([]byte, error) {
			b.Reset()
			b.Finish(g.Build(b, msg))
			return append(dst, b.FinishedBytes()...), nil
		},
		Decode: full,
	}
	if lazy {
		c.Decode = func(src []byte) (any, error) { harness.SinkInt += g.Access(src); return nil, nil }
		c.Verify = full
	}
	return c
}
