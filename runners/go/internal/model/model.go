// Package model holds what every serializer works on: a loaded dataset (the generated
// typed model of its message, tools/typegen, and for user datasets the generic value
// tree), the canonical-file loader and the checks a decode is compared with.
package model

import (
	"sort"
	"time"
)

// Kind tells a built-in dataset from a user dataset.
type Kind int

const (
	BuiltinKind Kind = iota // a built-in dataset: a message of datasets/*/types.json
	UserKind                // a user dataset
)

// Builtin lists the built-in datasets, sorted: those whose model tools/typegen generated
// from datasets/*/types.json (each registers itself), so a new built-in needs no runner code.
func Builtin() []string {
	var names []string
	for k := range typedModels {
		if !k.user {
			names = append(names, k.name)
		}
	}
	sort.Strings(names)
	return names
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
