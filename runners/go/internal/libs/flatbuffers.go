package libs

import (
	flatbuffers "github.com/google/flatbuffers/go"

	au "serbench/gen/fb/serbench/fbs/android_users"
	cm "serbench/gen/fb/serbench/fbs/click_maps"
	lr "serbench/gen/fb/serbench/fbs/log_records"
	od "serbench/gen/fb/serbench/fbs/one_mb_dict"
	pv "serbench/gen/fb/serbench/fbs/pb_vs_msgpack"
	"serbench/internal/harness"
	"serbench/internal/model"
	"serbench/typed/androidusers"
	"serbench/typed/clickmaps"
	"serbench/typed/logrecords"
	"serbench/typed/pbvsmsgpack"
)

// FlatBuffers (google/flatbuffers Go runtime, code from flatc 25 at build time). Two rows:
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

type fbEncoder struct {
	b    *flatbuffers.Builder
	offs []flatbuffers.UOffsetT
	sub  []flatbuffers.UOffsetT
}

// fbSeed tells the seed datasets, whose glue to flatc's Go code is hand-written below; the
// other datasets, built-in or user, have the glue typegen generated.
func fbSeed(shape any) bool {
	switch shape.(type) {
	case *[]androidusers.SampleData, *pbvsmsgpack.Test1, *pbvsmsgpack.Test2, *pbvsmsgpack.Test3,
		*pbvsmsgpack.Test4, *map[string]string, *clickmaps.ClickMap, *[]logrecords.TestClass:
		return true
	}
	return false
}

// fbApplicable: a seed (hand-written glue) or a built-in whose glue typegen generated.
func fbApplicable(t *model.Typed) error {
	if fbSeed(t.New()) || t.FlatBuffers != nil {
		return nil
	}
	return harness.NA("%s", t.FlatBuffersNA)
}

func fbCodec(d *model.Dataset, lazy bool) (*harness.Codec, error) {
	if d.Kind == model.UserKind { // the dataset's .fbs, compiled by typegen
		if _, why := d.User.SchemaFor("fbs", "flatbuffers"); why != "" {
			return nil, naErr(why)
		}
		if d.Model.FlatBuffers == nil {
			return nil, naErr(d.Model.FlatBuffersNA)
		}
		return fbGenerated(d.Model.FlatBuffers, lazy), nil
	}
	if err := fbApplicable(d.Model); err != nil {
		return nil, err
	}
	shape := d.New() // which seed's tables: the decoders switch on its type
	if !fbSeed(shape) {
		return fbGenerated(d.Model.FlatBuffers, lazy), nil
	}
	e := &fbEncoder{b: flatbuffers.NewBuilder(1024)}
	full := func(src []byte) (any, error) { return fbDecode(shape, src), nil }
	c := &harness.Codec{
		Encode: func(dst []byte, msg any) ([]byte, error) {
			e.b.Reset()
			e.encode(msg)
			return append(dst, e.b.FinishedBytes()...), nil
		},
		Decode: full,
	}
	if lazy {
		c.Decode = func(src []byte) (any, error) { return fbAccess(shape, src), nil }
		c.Verify = full
	}
	return c, nil
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

func (e *fbEncoder) vector(start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	start(e.b, len(offs))
	for i := len(offs) - 1; i >= 0; i-- {
		e.b.PrependUOffsetT(offs[i])
	}
	return e.b.EndVector(len(offs))
}

func (e *fbEncoder) test1(t *pbvsmsgpack.Test1) flatbuffers.UOffsetT {
	pv.Test1Start(e.b)
	pv.Test1AddA(e.b, t.A)
	pv.Test1AddB(e.b, t.B)
	return pv.Test1End(e.b)
}

func (e *fbEncoder) test2(t *pbvsmsgpack.Test2) flatbuffers.UOffsetT {
	pv.Test2Start(e.b)
	pv.Test2AddA(e.b, t.A)
	pv.Test2AddB(e.b, t.B)
	return pv.Test2End(e.b)
}

func (e *fbEncoder) test3(t *pbvsmsgpack.Test3) flatbuffers.UOffsetT {
	s := e.b.CreateString(t.S)
	pv.Test3Start(e.b)
	pv.Test3AddS(e.b, s)
	return pv.Test3End(e.b)
}

func (e *fbEncoder) encode(msg any) {
	b := e.b
	var root flatbuffers.UOffsetT
	switch m := msg.(type) {
	case *[]androidusers.SampleData:
		e.offs = e.offs[:0]
		for i := range *m {
			r := &(*m)[i]
			name := b.CreateString(r.Name)
			au.SampleDataStart(b)
			au.SampleDataAddId(b, r.ID)
			au.SampleDataAddName(b, name)
			au.SampleDataAddAge(b, r.Age)
			au.SampleDataAddGender(b, au.Gender(r.Gender))
			au.SampleDataAddIsMegane(b, r.IsMegane)
			e.offs = append(e.offs, au.SampleDataEnd(b))
		}
		vec := e.vector(au.SampleListStartSampleDataVector, e.offs)
		au.SampleListStart(b)
		au.SampleListAddSampleData(b, vec)
		root = au.SampleListEnd(b)
	case *pbvsmsgpack.Test1:
		root = e.test1(m)
	case *pbvsmsgpack.Test2:
		root = e.test2(m)
	case *pbvsmsgpack.Test3:
		root = e.test3(m)
	case *pbvsmsgpack.Test4:
		t1, t2, t3 := e.test1(&m.T1), e.test2(&m.T2), e.test3(&m.T3)
		pv.Test4Start(b)
		pv.Test4AddT1(b, t1)
		pv.Test4AddT2(b, t2)
		pv.Test4AddT3(b, t3)
		root = pv.Test4End(b)
	case *map[string]string:
		e.offs = e.offs[:0]
		for k, v := range *m {
			ko, vo := b.CreateString(k), b.CreateString(v)
			od.EntryStart(b)
			od.EntryAddKey(b, ko)
			od.EntryAddValue(b, vo)
			e.offs = append(e.offs, od.EntryEnd(b))
		}
		vec := e.vector(od.DictStartEntriesVector, e.offs)
		od.DictStart(b)
		od.DictAddEntries(b, vec)
		root = od.DictEnd(b)
	case *clickmaps.ClickMap:
		e.offs = e.offs[:0]
		for k, c := range m.Clicks {
			ko, sel := b.CreateString(k), b.CreateString(c.Selector)
			cm.ClickStart(b)
			cm.ClickAddX(b, c.X)
			cm.ClickAddY(b, c.Y)
			cm.ClickAddCount(b, c.Count)
			cm.ClickAddLastClick(b, c.LastClick)
			cm.ClickAddSelector(b, sel)
			co := cm.ClickEnd(b)
			cm.ClicksEntryStart(b)
			cm.ClicksEntryAddKey(b, ko)
			cm.ClicksEntryAddValue(b, co)
			e.offs = append(e.offs, cm.ClicksEntryEnd(b))
		}
		vec := e.vector(cm.ClickMapStartClicksVector, e.offs)
		url, day := b.CreateString(m.URL), b.CreateString(m.Day)
		cm.ViewportStart(b)
		cm.ViewportAddWidth(b, m.Viewport.Width)
		cm.ViewportAddHeight(b, m.Viewport.Height)
		vp := cm.ViewportEnd(b)
		cm.ClickMapStart(b)
		cm.ClickMapAddUrl(b, url)
		cm.ClickMapAddDay(b, day)
		cm.ClickMapAddViewport(b, vp)
		cm.ClickMapAddClicks(b, vec)
		root = cm.ClickMapEnd(b)
	case *[]logrecords.TestClass:
		e.offs = e.offs[:0]
		for i := range *m {
			r := &(*m)[i]
			e.sub = e.sub[:0]
			for _, p := range r.MyProperty5 {
				k, v := b.CreateString(p.Key), b.CreateString(p.Value)
				lr.PairStart(b)
				lr.PairAddKey(b, k)
				lr.PairAddValue(b, v)
				e.sub = append(e.sub, lr.PairEnd(b))
			}
			pairs := e.vector(lr.TestClassStartMyProperty5Vector, e.sub)
			p1 := b.CreateString(r.MyProperty1)
			lr.TestClassStart(b)
			lr.TestClassAddMyProperty1(b, p1)
			lr.TestClassAddMyProperty2(b, r.MyProperty2)
			lr.TestClassAddMyProperty3(b, r.MyProperty3.UnixMilli())
			lr.TestClassAddMyProperty4(b, r.MyProperty4)
			lr.TestClassAddMyProperty5(b, pairs)
			e.offs = append(e.offs, lr.TestClassEnd(b))
		}
		vec := e.vector(lr.TestClassListStartItemsVector, e.offs)
		lr.TestClassListStart(b)
		lr.TestClassListAddItems(b, vec)
		root = lr.TestClassListEnd(b)
	}
	b.Finish(root)
}

// fbDecode copies every field into the native types.
func fbDecode(shape any, buf []byte) any {
	switch shape.(type) {
	case *[]androidusers.SampleData:
		l := au.GetRootAsSampleList(buf, 0)
		out := make([]androidusers.SampleData, l.SampleDataLength())
		var r au.SampleData
		for i := range out {
			l.SampleData(&r, i)
			out[i] = androidusers.SampleData{ID: r.Id(), Name: string(r.Name()), Age: r.Age(), Gender: androidusers.Gender(r.Gender()), IsMegane: r.IsMegane()}
		}
		return &out
	case *pbvsmsgpack.Test1:
		t := pv.GetRootAsTest1(buf, 0)
		return &pbvsmsgpack.Test1{A: t.A(), B: t.B()}
	case *pbvsmsgpack.Test2:
		t := pv.GetRootAsTest2(buf, 0)
		return &pbvsmsgpack.Test2{A: t.A(), B: t.B()}
	case *pbvsmsgpack.Test3:
		return &pbvsmsgpack.Test3{S: string(pv.GetRootAsTest3(buf, 0).S())}
	case *pbvsmsgpack.Test4:
		t := pv.GetRootAsTest4(buf, 0)
		var t1 pv.Test1
		var t2 pv.Test2
		var t3 pv.Test3
		t.T1(&t1)
		t.T2(&t2)
		t.T3(&t3)
		return &pbvsmsgpack.Test4{T1: pbvsmsgpack.Test1{A: t1.A(), B: t1.B()}, T2: pbvsmsgpack.Test2{A: t2.A(), B: t2.B()}, T3: pbvsmsgpack.Test3{S: string(t3.S())}}
	case *map[string]string:
		dict := od.GetRootAsDict(buf, 0)
		n := dict.EntriesLength()
		out := make(map[string]string, n)
		var en od.Entry
		for i := 0; i < n; i++ {
			dict.Entries(&en, i)
			out[string(en.Key())] = string(en.Value())
		}
		return &out
	case *clickmaps.ClickMap:
		c := cm.GetRootAsClickMap(buf, 0)
		var vp cm.Viewport
		c.Viewport(&vp)
		n := c.ClicksLength()
		out := &clickmaps.ClickMap{URL: string(c.Url()), Day: string(c.Day()),
			Viewport: clickmaps.Viewport{Width: vp.Width(), Height: vp.Height()}, Clicks: make(map[string]clickmaps.Click, n)}
		var en cm.ClicksEntry
		var ck cm.Click
		for i := 0; i < n; i++ {
			c.Clicks(&en, i)
			en.Value(&ck)
			out.Clicks[string(en.Key())] = clickmaps.Click{X: ck.X(), Y: ck.Y(), Count: ck.Count(), LastClick: ck.LastClick(), Selector: string(ck.Selector())}
		}
		return out
	case *[]logrecords.TestClass:
		l := lr.GetRootAsTestClassList(buf, 0)
		out := make([]logrecords.TestClass, l.ItemsLength())
		var t lr.TestClass
		var p lr.Pair
		for i := range out {
			l.Items(&t, i)
			pairs := make([]logrecords.Pair, t.MyProperty5Length())
			for j := range pairs {
				t.MyProperty5(&p, j)
				pairs[j] = logrecords.Pair{Key: string(p.Key()), Value: string(p.Value())}
			}
			out[i] = logrecords.TestClass{MyProperty1: string(t.MyProperty1()), MyProperty2: t.MyProperty2(),
				MyProperty3: model.Millis(t.MyProperty3()), MyProperty4: t.MyProperty4(), MyProperty5: pairs}
		}
		return &out
	}
	return nil
}

// fbAccess reads every field in place (strings as byte slices into buf) and returns a
// checksum of them, so no read can be optimised away.
func fbAccess(shape any, buf []byte) any {
	n := 0
	switch shape.(type) {
	case *[]androidusers.SampleData:
		l := au.GetRootAsSampleList(buf, 0)
		var r au.SampleData
		for i := 0; i < l.SampleDataLength(); i++ {
			l.SampleData(&r, i)
			n += int(r.Id()) + len(r.Name()) + int(r.Age()) + int(r.Gender())
			if r.IsMegane() {
				n++
			}
		}
	case *pbvsmsgpack.Test1:
		t := pv.GetRootAsTest1(buf, 0)
		n = int(t.A() + t.B())
	case *pbvsmsgpack.Test2:
		t := pv.GetRootAsTest2(buf, 0)
		n = int(t.A() + t.B())
	case *pbvsmsgpack.Test3:
		n = len(pv.GetRootAsTest3(buf, 0).S())
	case *pbvsmsgpack.Test4:
		t := pv.GetRootAsTest4(buf, 0)
		var t1 pv.Test1
		var t2 pv.Test2
		var t3 pv.Test3
		t.T1(&t1)
		t.T2(&t2)
		t.T3(&t3)
		n = int(t1.A()+t1.B()) + int(t2.A()+t2.B()) + len(t3.S())
	case *map[string]string:
		dict := od.GetRootAsDict(buf, 0)
		var en od.Entry
		for i := 0; i < dict.EntriesLength(); i++ {
			dict.Entries(&en, i)
			n += len(en.Key()) + len(en.Value())
		}
	case *clickmaps.ClickMap:
		c := cm.GetRootAsClickMap(buf, 0)
		var vp cm.Viewport
		c.Viewport(&vp)
		n = len(c.Url()) + len(c.Day()) + int(vp.Width()+vp.Height())
		var en cm.ClicksEntry
		var ck cm.Click
		for i := 0; i < c.ClicksLength(); i++ {
			c.Clicks(&en, i)
			en.Value(&ck)
			n += len(en.Key()) + int(ck.X()+ck.Y()+ck.Count()) + int(ck.LastClick()) + len(ck.Selector())
		}
	case *[]logrecords.TestClass:
		l := lr.GetRootAsTestClassList(buf, 0)
		var t lr.TestClass
		var p lr.Pair
		for i := 0; i < l.ItemsLength(); i++ {
			l.Items(&t, i)
			n += len(t.MyProperty1()) + int(t.MyProperty2()) + int(t.MyProperty3())
			if t.MyProperty4() {
				n++
			}
			for j := 0; j < t.MyProperty5Length(); j++ {
				t.MyProperty5(&p, j)
				n += len(p.Key()) + len(p.Value())
			}
		}
	}
	harness.SinkInt += n
	return nil
}
