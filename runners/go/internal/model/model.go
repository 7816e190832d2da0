// Package model holds the native Go types of the built-in datasets, the canonical-file
// loader and the deep comparison used by every round-trip check.
package model

import "time"

// The msgp code generator (tinylib/msgp) writes model_gen.go from this file at build time:
// records as arrays in field order (the seed's layout), date-times as the MessagePack
// timestamp extension. Test3 is a bare string there, written by hand (msgp_test3.go).
//go:generate go tool msgp -file model.go -o model_gen.go -tests=false -io=false
//msgp:tuple SampleData Test1 Test2 Test4 Viewport Click ClickMap Pair TestClass
//msgp:newtime
//msgp:timezone utc
//msgp:ignore Test3 Kind Dataset

// Gender is the S1 enum, stored as its ordinal.
type Gender int32

// SampleData is one S1 record.
type SampleData struct {
	ID       int64  `json:"id" msgpack:"id" cbor:"id" bson:"id" avro:"id"`
	Name     string `json:"name" msgpack:"name" cbor:"name" bson:"name" avro:"name"`
	Age      int32  `json:"age" msgpack:"age" cbor:"age" bson:"age" avro:"age"`
	Gender   Gender `json:"gender" msgpack:"gender" cbor:"gender" bson:"gender" avro:"gender"`
	IsMegane bool   `json:"isMegane" msgpack:"isMegane" cbor:"isMegane" bson:"isMegane" avro:"isMegane"`
}

// SampleList is the S1 message as a named type (for generated code).
type SampleList []SampleData

// TestClassList is the S5 message as a named type (for generated code).
type TestClassList []TestClass

// Dict is the S3 message as a named type (for generated code).
type Dict map[string]string

// Test1 .. Test4 are the S2 messages.
type Test1 struct {
	A uint32 `json:"a" msgpack:"a" cbor:"a" bson:"a" avro:"a"`
	B uint32 `json:"b" msgpack:"b" cbor:"b" bson:"b" avro:"b"`
}

// Test2 holds two negative int32 values.
type Test2 struct {
	A int32 `json:"a" msgpack:"a" cbor:"a" bson:"a" avro:"a"`
	B int32 `json:"b" msgpack:"b" cbor:"b" bson:"b" avro:"b"`
}

// Test3 holds one 8 KiB string.
type Test3 struct {
	S string `json:"s" msgpack:"s" cbor:"s" bson:"s" avro:"s"`
}

// Test4 nests the other three.
type Test4 struct {
	T1 Test1 `json:"t1" msgpack:"t1" cbor:"t1" bson:"t1" avro:"t1"`
	T2 Test2 `json:"t2" msgpack:"t2" cbor:"t2" bson:"t2" avro:"t2"`
	T3 Test3 `json:"t3" msgpack:"t3" cbor:"t3" bson:"t3" avro:"t3"`
}

// Viewport is part of an S4 document.
type Viewport struct {
	Width  int32 `json:"width" msgpack:"width" cbor:"width" bson:"width" avro:"width"`
	Height int32 `json:"height" msgpack:"height" cbor:"height" bson:"height" avro:"height"`
}

// Click is one S4 click record.
type Click struct {
	X         int32  `json:"x" msgpack:"x" cbor:"x" bson:"x" avro:"x"`
	Y         int32  `json:"y" msgpack:"y" cbor:"y" bson:"y" avro:"y"`
	Count     int32  `json:"count" msgpack:"count" cbor:"count" bson:"count" avro:"count"`
	LastClick int64  `json:"lastClick" msgpack:"lastClick" cbor:"lastClick" bson:"lastClick" avro:"lastClick"`
	Selector  string `json:"selector" msgpack:"selector" cbor:"selector" bson:"selector" avro:"selector"`
}

// ClickMap is one S4 document.
type ClickMap struct {
	URL      string           `json:"url" msgpack:"url" cbor:"url" bson:"url" avro:"url"`
	Day      string           `json:"day" msgpack:"day" cbor:"day" bson:"day" avro:"day"`
	Viewport Viewport         `json:"viewport" msgpack:"viewport" cbor:"viewport" bson:"viewport" avro:"viewport"`
	Clicks   map[string]Click `json:"clicks" msgpack:"clicks" cbor:"clicks" bson:"clicks" avro:"clicks"`
}

// Pair is an S5 key/value pair.
type Pair struct {
	Key   string `json:"key" msgpack:"key" cbor:"key" bson:"key" avro:"key"`
	Value string `json:"value" msgpack:"value" cbor:"value" bson:"value" avro:"value"`
}

// TestClass is one S5 record.
type TestClass struct {
	MyProperty1 string    `json:"MyProperty1" msgpack:"MyProperty1" cbor:"MyProperty1" bson:"MyProperty1" avro:"MyProperty1"`
	MyProperty2 int32     `json:"MyProperty2" msgpack:"MyProperty2" cbor:"MyProperty2" bson:"MyProperty2" avro:"MyProperty2"`
	MyProperty3 time.Time `json:"MyProperty3" msgpack:"MyProperty3" cbor:"MyProperty3" bson:"MyProperty3" avro:"MyProperty3"`
	MyProperty4 bool      `json:"MyProperty4" msgpack:"MyProperty4" cbor:"MyProperty4" bson:"MyProperty4" avro:"MyProperty4"`
	MyProperty5 []Pair    `json:"MyProperty5" msgpack:"MyProperty5" cbor:"MyProperty5" bson:"MyProperty5" avro:"MyProperty5"`
}

// Kind identifies a built-in dataset's message type.
type Kind int

// The built-in message types.
const (
	AndroidUsers Kind = iota // *[]SampleData
	Test1Kind                // *Test1
	Test2Kind                // *Test2
	Test3Kind                // *Test3
	Test4Kind                // *Test4
	OneMbDict                // *map[string]string
	ClickMaps                // *ClickMap
	LogRecords               // *[]TestClass
	UserKind                 // a user dataset: generic value trees
)

// Builtin lists the built-in datasets in the order describe reports them.
var Builtin = []string{
	"android-users", "pb-vs-msgpack-test1", "pb-vs-msgpack-test2", "pb-vs-msgpack-test3",
	"pb-vs-msgpack-test4", "one-mb-dict", "click-maps", "log-records",
}

// KindOf maps a built-in dataset name to its message type.
func KindOf(name string) (Kind, bool) {
	for i, n := range Builtin {
		if n == name {
			return Kind(i), true
		}
	}
	return 0, false
}

// New returns a pointer to a fresh zero message of the kind, for decoders that fill one.
func New(k Kind) any {
	switch k {
	case AndroidUsers:
		return new([]SampleData)
	case Test1Kind:
		return new(Test1)
	case Test2Kind:
		return new(Test2)
	case Test3Kind:
		return new(Test3)
	case Test4Kind:
		return new(Test4)
	case OneMbDict:
		return new(map[string]string)
	case ClickMaps:
		return new(ClickMap)
	case LogRecords:
		return new([]TestClass)
	}
	return new(any)
}

// Dataset is a loaded canonical file: its items as pointers to native values.
type Dataset struct {
	Name   string
	Kind   Kind
	Stream bool
	Count  int
	Items  []any
	User   *UserInfo
}

// Message returns message i of the dataset (items repeat).
func (d *Dataset) Message(i int) any { return d.Items[i%len(d.Items)] }
