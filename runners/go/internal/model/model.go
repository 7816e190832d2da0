// Package model holds what every serializer works on: a loaded dataset (the generated
// typed model of its message, tools/typegen, and for user datasets the generic value
// tree), the canonical-file loader and the checks a decode is compared with.
package model

import "time"

// Kind identifies a built-in dataset for the libraries whose code is compiled from the
// dataset schemas (protobuf, flatbuffers, Avro mirror structs, hand-written writers).
type Kind int

// The built-in datasets, in Builtin's order.
const (
	AndroidUsers Kind = iota
	Test1Kind
	Test2Kind
	Test3Kind
	Test4Kind
	OneMbDict
	ClickMaps
	LogRecords
	UserKind // a user dataset
)

// Builtin lists the built-in datasets in the order describe reports them.
var Builtin = []string{
	"android-users", "pb-vs-msgpack-test1", "pb-vs-msgpack-test2", "pb-vs-msgpack-test3",
	"pb-vs-msgpack-test4", "one-mb-dict", "click-maps", "log-records",
}

// KindOf maps a built-in dataset name to its kind.
func KindOf(name string) (Kind, bool) {
	for i, n := range Builtin {
		if n == name {
			return Kind(i), true
		}
	}
	return 0, false
}

// Dataset is a loaded canonical file.
type Dataset struct {
	Name   string
	Kind   Kind
	Stream bool
	Count  int
	// Items are the distinct messages: pointers to the generated model's values when
	// Model is set, else (a user dataset's dynamic view) the generic trees.
	Items []any
	// Trees are a user dataset's items as generic value trees (nil for built-ins).
	Trees []any
	Model *Typed
	User  *UserInfo
	typed *Dataset // the cached TypedView
}

// Message returns message i of the dataset (items repeat).
func (d *Dataset) Message(i int) any { return d.Items[i%len(d.Items)] }

// Millis is the native date-time of a timestamp_ms value.
func Millis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
