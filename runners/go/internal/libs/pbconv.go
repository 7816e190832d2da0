package libs

import (
	"fmt"

	au "serbench/gen/androidusers"
	cm "serbench/gen/clickmaps"
	lr "serbench/gen/logrecords"
	od "serbench/gen/onembdict"
	pv "serbench/gen/pbvsmsgpack"
	"serbench/internal/model"

	"google.golang.org/protobuf/proto"
)

// Native values <-> the messages protoc-gen-go generated from the dataset .proto files
// (shared by protobuf and vtprotobuf; the copies are part of every timed operation).

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func toPB(msg any) (proto.Message, error) {
	switch m := msg.(type) {
	case *[]model.SampleData:
		l := &au.SampleList{SampleData: make([]*au.SampleData, len(*m))}
		for i := range *m {
			r := &(*m)[i]
			l.SampleData[i] = &au.SampleData{Id: proto.Int64(r.ID), Name: proto.String(r.Name), Age: proto.Int32(r.Age),
				Gender: au.Gender(r.Gender).Enum(), IsMegane: proto.Int32(b2i(r.IsMegane))}
		}
		return l, nil
	case *model.Test1:
		return &pv.Test1{A: proto.Uint32(m.A), B: proto.Uint32(m.B)}, nil
	case *model.Test2:
		return &pv.Test2{A: proto.Int32(m.A), B: proto.Int32(m.B)}, nil
	case *model.Test3:
		return &pv.Test3{S: proto.String(m.S)}, nil
	case *model.Test4:
		return &pv.Test4{
			T1: &pv.Test1{A: proto.Uint32(m.T1.A), B: proto.Uint32(m.T1.B)},
			T2: &pv.Test2{A: proto.Int32(m.T2.A), B: proto.Int32(m.T2.B)},
			T3: &pv.Test3{S: proto.String(m.T3.S)},
		}, nil
	case *map[string]string:
		return &od.Dict{Entries: *m}, nil
	case *model.ClickMap:
		c := &cm.ClickMap{Url: m.URL, Day: m.Day, Viewport: &cm.Viewport{Width: m.Viewport.Width, Height: m.Viewport.Height},
			Clicks: make(map[string]*cm.Click, len(m.Clicks))}
		for k, v := range m.Clicks {
			c.Clicks[k] = &cm.Click{X: v.X, Y: v.Y, Count: v.Count, LastClick: v.LastClick, Selector: v.Selector}
		}
		return c, nil
	case *[]model.TestClass:
		l := &lr.TestClassList{Items: make([]*lr.TestClass, len(*m))}
		for i := range *m {
			r := &(*m)[i]
			t := &lr.TestClass{MyProperty1: r.MyProperty1, MyProperty2: r.MyProperty2, MyProperty3: r.MyProperty3.UnixMilli(),
				MyProperty4: r.MyProperty4, MyProperty5: make([]*lr.Pair, len(r.MyProperty5))}
			for j, p := range r.MyProperty5 {
				t.MyProperty5[j] = &lr.Pair{Key: p.Key, Value: p.Value}
			}
			l.Items[i] = t
		}
		return l, nil
	}
	return nil, fmt.Errorf("protobuf: no message for %T", msg)
}

func newPB(kind model.Kind) proto.Message {
	switch kind {
	case model.AndroidUsers:
		return &au.SampleList{}
	case model.Test1Kind:
		return &pv.Test1{}
	case model.Test2Kind:
		return &pv.Test2{}
	case model.Test3Kind:
		return &pv.Test3{}
	case model.Test4Kind:
		return &pv.Test4{}
	case model.OneMbDict:
		return &od.Dict{}
	case model.ClickMaps:
		return &cm.ClickMap{}
	case model.LogRecords:
		return &lr.TestClassList{}
	}
	return nil
}

func fromPB(pm proto.Message) any {
	switch m := pm.(type) {
	case *au.SampleList:
		out := make([]model.SampleData, len(m.SampleData))
		for i, r := range m.SampleData {
			out[i] = model.SampleData{ID: r.GetId(), Name: r.GetName(), Age: r.GetAge(), Gender: model.Gender(r.GetGender()), IsMegane: r.GetIsMegane() != 0}
		}
		return &out
	case *pv.Test1:
		return &model.Test1{A: m.GetA(), B: m.GetB()}
	case *pv.Test2:
		return &model.Test2{A: m.GetA(), B: m.GetB()}
	case *pv.Test3:
		return &model.Test3{S: m.GetS()}
	case *pv.Test4:
		return &model.Test4{T1: model.Test1{A: m.GetT1().GetA(), B: m.GetT1().GetB()},
			T2: model.Test2{A: m.GetT2().GetA(), B: m.GetT2().GetB()}, T3: model.Test3{S: m.GetT3().GetS()}}
	case *od.Dict:
		out := m.Entries
		if out == nil {
			out = map[string]string{}
		}
		return &out
	case *cm.ClickMap:
		out := &model.ClickMap{URL: m.Url, Day: m.Day, Viewport: model.Viewport{Width: m.GetViewport().GetWidth(), Height: m.GetViewport().GetHeight()},
			Clicks: make(map[string]model.Click, len(m.Clicks))}
		for k, v := range m.Clicks {
			out.Clicks[k] = model.Click{X: v.GetX(), Y: v.GetY(), Count: v.GetCount(), LastClick: v.GetLastClick(), Selector: v.GetSelector()}
		}
		return out
	case *lr.TestClassList:
		out := make([]model.TestClass, len(m.Items))
		for i, r := range m.Items {
			t := model.TestClass{MyProperty1: r.MyProperty1, MyProperty2: r.MyProperty2, MyProperty3: model.Millis(r.MyProperty3),
				MyProperty4: r.MyProperty4, MyProperty5: make([]model.Pair, len(r.MyProperty5))}
			for j, p := range r.MyProperty5 {
				t.MyProperty5[j] = model.Pair{Key: p.GetKey(), Value: p.GetValue()}
			}
			out[i] = t
		}
		return &out
	}
	return nil
}
