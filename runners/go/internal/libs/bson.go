package libs

import (
	"bytes"
	"reflect"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// bson: the MongoDB Go driver's v2 bson package on the typed model. A BSON root is a
// document, so the list-rooted built-in datasets are wrapped as {"items": [...]}, as users
// store them, and a user dataset's root that is not a record or map as {"value": ...}.
var bsonCodec = &harness.Serializer{
	Name: "bson", Format: "bson", Library: "go.mongodb.org/mongo-driver/v2/bson", Module: "go.mongodb.org/mongo-driver/v2",
	Labels: []string{"binary", "schemaless", "reflective", "map-layout", "copying-decode", "enum-as-ordinal", "timestamp-native"},
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if d.Kind != model.UserKind {
			if d.Model.Types.Message.Kind == model.UList {
				return bsonBoxed(d, "items"), nil
			}
			return reflectiveCodec(d, bson.Marshal, bson.Unmarshal), nil
		}
		if err := bsonFit(d); err != nil {
			return nil, err
		}
		if err := noBigint("bson", d); err != nil {
			return nil, err
		}
		if err := typedFit("bson", d, nil); err != nil {
			return nil, err
		}
		if bsonWraps(d) {
			return bsonBoxed(d, "value"), nil
		}
		return reflectiveCodec(d, bson.Marshal, bson.Unmarshal), nil
	},
}

// bson-dynamic: the same library on the generic value tree (nested documents decode as maps).
var bsonDynamic = dynamicRow(bsonCodec, func(d *model.Dataset) (*harness.Codec, error) {
	if err := bsonFit(d); err != nil {
		return nil, err
	}
	wrapped := bsonWraps(d)
	return userCodec(d, func(msg any) ([]byte, error) {
		if wrapped {
			return bson.Marshal(bson.D{{Key: "value", Value: msg}})
		}
		return bson.Marshal(msg)
	}, func(src []byte) (any, error) {
		dec := bson.NewDecoder(bson.NewDocumentReader(bytes.NewReader(src)))
		dec.DefaultDocumentM()
		var m bson.M
		if err := dec.Decode(&m); err != nil {
			return nil, err
		}
		if wrapped {
			return m["value"], nil
		}
		return m, nil
	}), nil
})

// bsonFit objects to integers beyond int64 and keys holding NUL.
func bsonFit(d *model.Dataset) error {
	noNUL := func(k string) string {
		if strings.IndexByte(k, 0) >= 0 {
			return "contains NUL, which BSON keys cannot"
		}
		return ""
	}
	return unfit("bson", d, withinInt64, noNUL)
}

// bsonWraps tells whether a user dataset's root needs a document around it.
func bsonWraps(d *model.Dataset) bool {
	k := d.User.Types.Message.Kind
	return k != model.URecord && k != model.UMap
}

// bsonBoxed wraps a typed message as {key: message}, the wrapper struct built for the
// model's message type.
func bsonBoxed(d *model.Dataset, key string) *harness.Codec {
	t := reflect.TypeOf(d.New()).Elem()
	box := reflect.StructOf([]reflect.StructField{{Name: "Value", Type: t, Tag: reflect.StructTag(`bson:"` + key + `"`)}})
	return &harness.Codec{
		Encode: func(dst []byte, msg any) ([]byte, error) {
			v := reflect.New(box).Elem()
			v.Field(0).Set(reflect.ValueOf(msg).Elem())
			b, err := bson.Marshal(v.Interface())
			return harness.AppendBytes(dst, b), err
		},
		Decode: func(src []byte) (any, error) {
			v := reflect.New(box)
			err := bson.Unmarshal(src, v.Interface())
			return v.Elem().Field(0).Addr().Interface(), err
		},
	}
}
