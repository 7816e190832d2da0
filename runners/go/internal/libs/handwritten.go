package libs

import (
	"encoding/binary"
	"errors"

	"serbench/internal/harness"
	"serbench/internal/model"
	"serbench/typed/androidusers"
	"serbench/typed/clickmaps"
	"serbench/typed/logrecords"
	"serbench/typed/pbvsmsgpack"
)

// The hand-written baseline (the Parcelable stand-in): little-endian fixed-width
// integers, u32-length strings, u32-count lists and maps, no library.
var handwritten = &harness.Serializer{
	Name: "handwritten", Format: "custom-binary", Library: "encoding/binary", Module: "encoding/binary",
	UserNA:     "handwritten: needs an encoder and decoder written by hand for the dataset's types, which exist only for the seed datasets",
	Labels:     []string{"binary", "handwritten", "positional", "schema-required", "copying-decode"},
	Applicable: handApplicable,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind == model.UserKind {
			return nil, harness.NA("handwritten: no hand-written code for user datasets")
		}
		if err := handApplicable(d.Model); err != nil {
			return nil, err
		}
		shape := d.New() // which seed: HandDecode switches on its type
		return &harness.Codec{Encode: HandEncode, Decode: func(src []byte) (any, error) { return HandDecode(shape, src) }}, nil
	},
}

// handApplicable: the codec is written by hand for the seed datasets only (HandEncode knows
// their types); another built-in would need its own.
func handApplicable(t *model.Typed) error {
	if _, err := HandEncode(nil, t.New()); err != nil {
		return harness.NA("handwritten: hand-written per seed dataset; no code for %s", t.Dataset)
	}
	return nil
}

func putStr(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func putBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// HandEncode appends the hand-written encoding of a built-in message.
func HandEncode(b []byte, msg any) ([]byte, error) {
	le := binary.LittleEndian
	switch m := msg.(type) {
	case *[]androidusers.SampleData:
		b = le.AppendUint32(b, uint32(len(*m)))
		for i := range *m {
			r := &(*m)[i]
			b = le.AppendUint64(b, uint64(r.ID))
			b = putStr(b, r.Name)
			b = le.AppendUint32(b, uint32(r.Age))
			b = le.AppendUint32(b, uint32(r.Gender))
			b = putBool(b, r.IsMegane)
		}
	case *pbvsmsgpack.Test1:
		b = le.AppendUint32(le.AppendUint32(b, m.A), m.B)
	case *pbvsmsgpack.Test2:
		b = le.AppendUint32(le.AppendUint32(b, uint32(m.A)), uint32(m.B))
	case *pbvsmsgpack.Test3:
		b = putStr(b, m.S)
	case *pbvsmsgpack.Test4:
		b = le.AppendUint32(le.AppendUint32(b, m.T1.A), m.T1.B)
		b = le.AppendUint32(le.AppendUint32(b, uint32(m.T2.A)), uint32(m.T2.B))
		b = putStr(b, m.T3.S)
	case *map[string]string:
		b = le.AppendUint32(b, uint32(len(*m)))
		for k, v := range *m {
			b = putStr(putStr(b, k), v)
		}
	case *clickmaps.ClickMap:
		b = putStr(putStr(b, m.URL), m.Day)
		b = le.AppendUint32(le.AppendUint32(b, uint32(m.Viewport.Width)), uint32(m.Viewport.Height))
		b = le.AppendUint32(b, uint32(len(m.Clicks)))
		for k, c := range m.Clicks {
			b = putStr(b, k)
			b = le.AppendUint32(le.AppendUint32(le.AppendUint32(b, uint32(c.X)), uint32(c.Y)), uint32(c.Count))
			b = le.AppendUint64(b, uint64(c.LastClick))
			b = putStr(b, c.Selector)
		}
	case *[]logrecords.TestClass:
		b = le.AppendUint32(b, uint32(len(*m)))
		for i := range *m {
			r := &(*m)[i]
			b = putStr(b, r.MyProperty1)
			b = le.AppendUint32(b, uint32(r.MyProperty2))
			b = le.AppendUint64(b, uint64(r.MyProperty3.UnixMilli()))
			b = putBool(b, r.MyProperty4)
			b = le.AppendUint32(b, uint32(len(r.MyProperty5)))
			for _, p := range r.MyProperty5 {
				b = putStr(putStr(b, p.Key), p.Value)
			}
		}
	default:
		return b, harness.NA("handwritten: no code for %T", msg)
	}
	return b, nil
}

var errShort = errors.New("truncated input")

type reader struct {
	b   []byte
	err error
}

func (r *reader) u32() uint32 {
	if len(r.b) < 4 {
		r.err, r.b = errShort, nil
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *reader) u64() uint64 {
	if len(r.b) < 8 {
		r.err, r.b = errShort, nil
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *reader) bool() bool {
	if len(r.b) < 1 {
		r.err = errShort
		return false
	}
	v := r.b[0] != 0
	r.b = r.b[1:]
	return v
}

func (r *reader) str() string {
	n := int(r.u32())
	if len(r.b) < n {
		r.err, r.b = errShort, nil
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *reader) count() int {
	n := int(r.u32())
	if n > len(r.b) {
		r.err, r.b = errShort, nil
		return 0
	}
	return n
}

// HandDecode reads a built-in message written by HandEncode; shape is a message of the
// dataset's type.
func HandDecode(shape any, src []byte) (any, error) {
	r := &reader{b: src}
	var out any
	switch shape.(type) {
	case *[]androidusers.SampleData:
		m := make([]androidusers.SampleData, r.count())
		for i := range m {
			m[i] = androidusers.SampleData{ID: int64(r.u64()), Name: r.str(), Age: int32(r.u32()), Gender: androidusers.Gender(r.u32()), IsMegane: r.bool()}
		}
		out = &m
	case *pbvsmsgpack.Test1:
		out = &pbvsmsgpack.Test1{A: r.u32(), B: r.u32()}
	case *pbvsmsgpack.Test2:
		out = &pbvsmsgpack.Test2{A: int32(r.u32()), B: int32(r.u32())}
	case *pbvsmsgpack.Test3:
		out = &pbvsmsgpack.Test3{S: r.str()}
	case *pbvsmsgpack.Test4:
		m := &pbvsmsgpack.Test4{}
		m.T1 = pbvsmsgpack.Test1{A: r.u32(), B: r.u32()}
		m.T2 = pbvsmsgpack.Test2{A: int32(r.u32()), B: int32(r.u32())}
		m.T3.S = r.str()
		out = m
	case *map[string]string:
		n := r.count()
		m := make(map[string]string, n)
		for i := 0; i < n; i++ {
			k := r.str()
			m[k] = r.str()
		}
		out = &m
	case *clickmaps.ClickMap:
		m := &clickmaps.ClickMap{URL: r.str(), Day: r.str()}
		m.Viewport = clickmaps.Viewport{Width: int32(r.u32()), Height: int32(r.u32())}
		n := r.count()
		m.Clicks = make(map[string]clickmaps.Click, n)
		for i := 0; i < n; i++ {
			k := r.str()
			m.Clicks[k] = clickmaps.Click{X: int32(r.u32()), Y: int32(r.u32()), Count: int32(r.u32()), LastClick: int64(r.u64()), Selector: r.str()}
		}
		out = m
	case *[]logrecords.TestClass:
		m := make([]logrecords.TestClass, r.count())
		for i := range m {
			t := &m[i]
			t.MyProperty1 = r.str()
			t.MyProperty2 = int32(r.u32())
			t.MyProperty3 = model.Millis(int64(r.u64()))
			t.MyProperty4 = r.bool()
			t.MyProperty5 = make([]logrecords.Pair, r.count())
			for j := range t.MyProperty5 {
				t.MyProperty5[j] = logrecords.Pair{Key: r.str(), Value: r.str()}
			}
		}
		out = &m
	default:
		return nil, harness.NA("handwritten: no code for this dataset")
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, errors.New("trailing bytes")
	}
	return out, nil
}
