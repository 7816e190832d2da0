package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/tinylib/msgp/msgp"
	"google.golang.org/protobuf/proto"
)

// Typed is the generated model of one dataset's message type (tools/typegen writes one
// per built-in dataset and per registered user dataset, and registers it at init).
type Typed struct {
	Dataset     string     // the dataset name
	User        bool       // a user dataset (else built-in)
	Family      string     // a built-in's folder under datasets/ (its schemas' file name)
	TypesSHA256 string     // sha256 of the types file the code was generated from
	TypesJSON   string     // that file's text
	Types       *UserTypes // parsed by Register
	// New returns a pointer to a zero message, for decoders that fill one.
	New func() any
	// FromTree converts a generic value tree (Build's output) to a pointer to the message.
	FromTree func(tree any) any
	// ToTree converts a decoded message back to a generic tree, for the strict check.
	ToTree func(msg any) any
	// Msgp views a message as its msgp-generated type; nil when MsgpNA says why not.
	Msgp   func(msg any) Msgp
	MsgpNA string
	// TagNA, when set, is why struct tags cannot name every field (libraries mapping
	// records by field name then cannot carry the dataset).
	TagNA string
	// Proto converts to and from the messages protoc-gen-go generated from the dataset's
	// .proto; nil when ProtoNA says why.
	Proto   *Proto
	ProtoNA string
	// FlatBuffers is the glue to the code flatc generated from the dataset's .fbs; nil when
	// FlatBuffersNA says why (tools/typegen/fb.go).
	FlatBuffers   *FlatBuffers
	FlatBuffersNA string
	// Avro is the typed model's mirror for hamba/avro where the .avsc holds what hamba does
	// not bind to the model's own types (tools/typegen/avro.go); nil: hamba binds the model,
	// or AvroNA says why the avro row cannot carry the dataset.
	Avro   *Avro
	AvroNA string
	// Hand writes and reads the handwritten layout (package hw, code from
	// tools/typegen/hw.go); nil when HandNA says why the layout cannot carry the message.
	Hand   *Hand
	HandNA string
}

// Hand is the generated handwritten encoder and decoder of a message.
type Hand struct {
	Encode func(b []byte, msg any) []byte // appends the encoding of msg
	Decode func(src []byte) (any, error)  // a new message; an error for truncated input or trailing bytes
}

// Avro converts a message to and from the generated structs hamba/avro binds to the .avsc.
type Avro struct {
	New  func() any        // a pointer to a zero mirror, for the decoder to fill
	To   func(msg any) any // the value hamba/avro writes
	From func(v any) any   // New's value, filled, as a message
}

// FlatBuffers builds and reads a message through flatc's generated Go code.
type FlatBuffers struct {
	Build  func(b *flatbuffers.Builder, msg any) flatbuffers.UOffsetT // the root table
	Decode func(buf []byte) any                                       // every field copied into a new message
	Access func(buf []byte) int                                       // every field read in place: their checksum
}

// Proto is a typed model's bridge to its protoc-gen-go messages.
type Proto struct {
	New  func() proto.Message
	To   func(msg any) proto.Message
	From func(m proto.Message) any
}

// Msgp is what tinylib/msgp generates for a type.
type Msgp interface {
	msgp.Marshaler
	msgp.Unmarshaler
}

type typedKey struct {
	name string
	user bool
}

var typedModels = map[typedKey]*Typed{}

// Register adds a generated model (called from the generated packages' init).
func Register(t *Typed) {
	types, err := ParseUserTypes([]byte(t.TypesJSON))
	if err != nil {
		panic(fmt.Sprintf("generated model of %s: %v", t.Dataset, err))
	}
	t.Types = types
	typedModels[typedKey{t.Dataset, t.User}] = t
}

// TypedFor returns the generated model of a dataset, or nil.
func TypedFor(name string, user bool) *Typed { return typedModels[typedKey{name, user}] }

// NotBuilt is the reason typed rows give for a user dataset without a current model.
const NotBuilt = "typed model not built for this dataset's types: run `serbench build -r go`"

// TypedView returns the user dataset as values of its generated model (cached), or the
// reason there is none: the dataset was registered, or its types changed, after the build.
func (d *Dataset) TypedView() (*Dataset, string) {
	if d.Model != nil || d.User == nil {
		return d, ""
	}
	if d.typed != nil {
		return d.typed, ""
	}
	t := TypedFor(d.Name, true)
	if t == nil {
		return nil, NotBuilt
	}
	raw, err := os.ReadFile(d.User.TypesPath)
	if err != nil {
		return nil, err.Error()
	}
	sum := sha256.Sum256(raw)
	if hex.EncodeToString(sum[:]) != t.TypesSHA256 {
		return nil, NotBuilt
	}
	v := *d
	v.Model = t
	v.Items = make([]any, len(d.Trees))
	for i, tree := range d.Trees {
		v.Items[i] = t.FromTree(tree)
	}
	d.typed = &v
	return d.typed, ""
}

// New returns a pointer to a fresh zero message of the dataset's generated model.
func (d *Dataset) New() any { return d.Model.New() }
