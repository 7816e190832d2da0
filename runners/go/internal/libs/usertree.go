package libs

import (
	"fmt"
	"math"
	"math/big"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// Shared by the schemaless serializers on user datasets (protocol section 7): they encode
// the generic value tree (map[string]any, []any, int32/uint32/int64/uint64, *big.Int
// beyond 64 bits, float32/float64, string, bool, []byte, time.Time, nil) and revive what
// they decode through the dataset's types, as a user holding such data would.

// noNonFinite objects to NaN and infinities (formats whose text has no form for them).
func noNonFinite(v any) (string, string) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case float32:
		f = float64(x)
	default:
		return "", ""
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Sprint(f), "has no JSON form (JSON numbers exclude NaN and infinities)"
	}
	return "", ""
}

// within64 objects to integers beyond 64 bits (signed or unsigned).
func within64(v any) (string, string) {
	if b, ok := v.(*big.Int); ok {
		return b.String(), "exceeds 64-bit integers"
	}
	return "", ""
}

// withinInt64 objects to integers beyond int64 (formats without unsigned 64-bit).
func withinInt64(v any) (string, string) {
	switch x := v.(type) {
	case *big.Int:
		return x.String(), "exceeds int64"
	case uint64:
		if x > math.MaxInt64 {
			return fmt.Sprint(x), "exceeds int64 (the format has no unsigned 64-bit integer)"
		}
	}
	return "", ""
}

// unfit returns a not-applicable error naming the first value of the dataset test
// objects to, or nil.
func unfit(format string, d *model.Dataset, test func(any) (string, string), key func(string) string) error {
	if s := d.FirstUnfit(test, key); s != "" {
		return harness.NA("%s: %s", format, s)
	}
	return nil
}

// userCodec wraps encode/decode of generic values: the decoded value is revived through
// the dataset's types.
func userCodec(d *model.Dataset, encode func(any) ([]byte, error), decode func([]byte) (any, error)) *harness.Codec {
	t := d.User.Types.Message
	return &harness.Codec{
		Encode: func(dst []byte, msg any) ([]byte, error) {
			b, err := encode(msg)
			return harness.AppendBytes(dst, b), err
		},
		Decode: func(src []byte) (any, error) {
			v, err := decode(src)
			if err != nil {
				return nil, err
			}
			return model.Revive(t, v), nil
		},
	}
}

// jsonUser is a JSON library's user-dataset codec: bytes as base64 text, date-times as
// RFC 3339 text, numbers decoded exactly (UseNumber) and revived through the types.
func jsonUser(d *model.Dataset, format string, marshal func(any) ([]byte, error), unmarshalNumber func([]byte, *any) error) (*harness.Codec, error) {
	if err := unfit(format, d, noNonFinite, nil); err != nil {
		return nil, err
	}
	return userCodec(d, marshal, func(src []byte) (any, error) {
		var v any
		err := unmarshalNumber(src, &v)
		return v, err
	}), nil
}

// typedFit is what a typed row checks on a user dataset before encoding its generated
// model: struct tags that can name every field, and every value fitting the format (test
// walks the generic tree; nil for none).
func typedFit(format string, d *model.Dataset, test func(any) (string, string)) error {
	if d.Kind != model.UserKind {
		return nil
	}
	if d.Model.TagNA != "" {
		return harness.NA("%s: %s", format, d.Model.TagNA)
	}
	if test == nil {
		return nil
	}
	return unfit(format, d, test, nil)
}

// positionalFit is typedFit for positional layouts, which name no fields: MessagePack
// integers stop at 64 bits.
func positionalFit(format string, d *model.Dataset) error {
	if d.Kind != model.UserKind {
		return nil
	}
	return unfit(format, d, within64, nil)
}

// noBigint objects to a bigint position in a typed model (formats without big integers).
func noBigint(format string, d *model.Dataset) error {
	if d.Kind != model.UserKind {
		return nil
	}
	if p := model.FindType(d.Model.Types.Message, "$", func(t *model.UType) bool {
		return t.Kind == model.UPrim && t.Name == "bigint"
	}); p != "" {
		return harness.NA("%s: %s is bigint, and the format's integers stop at 64 bits", format, p)
	}
	return nil
}

// dynamicRow is a library's generic-API row beside its typed one: the same library on the
// generic value tree of user datasets (built-in datasets run through the typed row).
func dynamicRow(typed *harness.Serializer, codec func(d *model.Dataset) (*harness.Codec, error)) *harness.Serializer {
	name := typed.Name + "-dynamic"
	labels := make([]string, 0, len(typed.Labels))
	for _, l := range typed.Labels {
		switch l {
		case "reflective", "generated":
			l = "dynamic"
		case "positional":
			l = "map-layout"
		}
		labels = append(labels, l)
	}
	builtinNA := func() error {
		return harness.NA("%s: the generic value tree is for user datasets; built-in datasets run through %s", name, typed.Name)
	}
	return &harness.Serializer{Name: name, Format: typed.Format, Library: typed.Library, Module: typed.Module,
		Labels:         labels,
		SelfDelimiting: typed.SelfDelimiting,
		Applicable:     func(*model.Typed) error { return builtinNA() },
		Codec: func(d *model.Dataset) (*harness.Codec, error) {
			if d.Kind != model.UserKind {
				return nil, builtinNA()
			}
			return codec(d)
		}}
}

// naErr is a not-applicable error with a ready message.
func naErr(s string) error { return harness.NA("%s", s) }
