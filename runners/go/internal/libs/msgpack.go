package libs

import (
	"bytes"
	"reflect"

	"github.com/vmihailenco/msgpack/v5"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// msgpack: vmihailenco/msgpack v5 by reflection on the typed model, in the seed's
// positional layout (records as arrays, enum as ordinal, a record of one field as its
// bare value, like S2's string message: S1 is 383 bytes).
var vmsgpack = &harness.Serializer{
	Name: "msgpack", Format: "msgpack", Library: "github.com/vmihailenco/msgpack/v5", Module: "github.com/vmihailenco/msgpack/v5",
	Labels:         []string{"binary", "schemaless", "reflective", "positional", "copying-decode", "enum-as-ordinal", "timestamp-native"},
	Typed:          true,
	SelfDelimiting: true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := noBigint("msgpack", d); err != nil {
			return nil, err
		}
		if err := positionalFit("msgpack", d); err != nil {
			return nil, err
		}
		registerBare(reflect.TypeOf(d.New()), map[reflect.Type]bool{})
		return msgpackCodec(func(dec *msgpack.Decoder) (any, error) {
			v := d.New()
			return v, dec.Decode(v)
		}), nil
	},
}

// msgpack-dynamic: the same library on the generic value tree (records as maps), what it
// decodes revived through the types.
var vmsgpackDynamic = dynamicRow(vmsgpack, func(d *model.Dataset) (*harness.Codec, error) {
	if err := unfit("msgpack", d, within64, nil); err != nil {
		return nil, err
	}
	t := d.User.Types.Message
	return msgpackCodec(func(dec *msgpack.Decoder) (any, error) {
		v, err := dec.DecodeInterface()
		return model.Revive(t, v), err
	}), nil
})

// msgpackCodec encodes with the seed's settings and decodes with read, messages
// concatenated (self-delimiting).
func msgpackCodec(read func(*msgpack.Decoder) (any, error)) *harness.Codec {
	w := &appendWriter{}
	enc := msgpack.NewEncoder(w)
	enc.UseArrayEncodedStructs(true)
	enc.UseCompactInts(true)
	r := &bytes.Reader{}
	dec := msgpack.NewDecoder(r)
	next := func(src []byte) (any, int, error) {
		r.Reset(src)
		dec.Reset(r)
		v, err := read(dec)
		return v, len(src) - r.Len(), err
	}
	return &harness.Codec{
		Encode: func(dst []byte, msg any) ([]byte, error) {
			w.b = dst
			err := enc.Encode(msg)
			return w.b, err
		},
		Decode: func(src []byte) (any, error) { v, _, err := next(src); return v, err },
		Next:   next,
	}
}

// registerBare makes msgpack write every struct of one field reachable from t as that
// field's value (the positional layout every runner shares).
func registerBare(t reflect.Type, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		registerBare(t.Elem(), seen)
	case reflect.Struct:
		if t.PkgPath() == "time" || t.PkgPath() == "math/big" {
			return
		}
		for i := 0; i < t.NumField(); i++ {
			registerBare(t.Field(i).Type, seen)
		}
		if t.NumField() == 1 {
			msgpack.Register(reflect.Zero(t).Interface(),
				func(e *msgpack.Encoder, v reflect.Value) error { return e.EncodeValue(v.Field(0)) },
				func(d *msgpack.Decoder, v reflect.Value) error { return d.DecodeValue(v.Field(0)) })
		}
	}
}

// appendWriter is an io.Writer appending to a reusable slice. It is an io.ByteWriter too:
// without WriteByte the encoder wraps it in an adapter that allocates a one-byte slice for
// every single-byte write (an array header, a small int), several per message.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

func (w *appendWriter) WriteByte(c byte) error { w.b = append(w.b, c); return nil }
