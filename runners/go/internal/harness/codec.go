// Package harness implements protocol v2 (describe, serve, transport) for the Go runner:
// cells, framing, the round-trip check, sampling and the codec registry's types.
package harness

import (
	"errors"
	"fmt"
	"slices"

	"serbench/internal/model"
)

// Codec encodes and decodes the messages of one dataset.
type Codec struct {
	// Encode appends the encoding of msg (a pointer to a native value) to dst.
	Encode func(dst []byte, msg any) ([]byte, error)
	// Decode reads one whole message.
	Decode func(src []byte) (any, error)
	// Next reads one message from the front of src and returns the bytes it used: the
	// stream reader of a SelfDelimiting serializer (required there).
	Next func(src []byte) (any, int, error)
	// Verify, when set, is what the round-trip check decodes with instead of Decode
	// (baselines whose Decode does not parse).
	Verify func(src []byte) (any, error)
}

// Serializer is one row of describe: a library (or baseline) in one configuration.
type Serializer struct {
	Name    string
	Format  string
	Library string
	// Module is the Go module (or standard-library package) whose version and
	// footprint are reported.
	Module string
	Labels []string
	// SelfDelimiting serializers write stream messages back to back without a length
	// prefix and read them with the codec's Next (protocol section 6); describe labels
	// them stream-concatenated.
	SelfDelimiting bool
	// Codec builds the codec for a dataset, or returns a NotApplicable error.
	Codec func(d *model.Dataset) (*Codec, error)
	// Static applicability for describe, given a built-in's generated model; nil means
	// every built-in dataset.
	Applicable func(t *model.Typed) error
	// UserNA, when set, is why the serializer takes no user dataset (protocol section 7);
	// a serializer that takes them still decides per dataset in Codec.
	UserNA string
	// Typed serializers work on the generated typed model: a user dataset reaches their
	// Codec as its TypedView (not applicable when the model was not built for its types).
	Typed bool
}

// StreamConcatenated labels a SelfDelimiting serializer.
const StreamConcatenated = "stream-concatenated"

// DescribedLabels are the labels describe lists: Labels, plus StreamConcatenated when
// the serializer is SelfDelimiting.
func (s *Serializer) DescribedLabels() []string {
	if !s.SelfDelimiting {
		return s.Labels
	}
	return append(slices.Clip(s.Labels), StreamConcatenated)
}

// NotApplicable marks a dataset the serializer cannot represent.
type NotApplicable struct{ Reason string }

func (e *NotApplicable) Error() string { return e.Reason }

// NA builds a NotApplicable error.
func NA(format string, args ...any) error { return &NotApplicable{fmt.Sprintf(format, args...)} }

// IsNA tells whether err is a NotApplicable.
func IsNA(err error) bool {
	var na *NotApplicable
	return errors.As(err, &na)
}

// AppendBytes appends b to dst, or returns b itself when dst is empty (no copy).
func AppendBytes(dst, b []byte) []byte {
	if len(dst) == 0 {
		return b
	}
	return append(dst, b...)
}
