package libs

import (
	"bytes"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// bson: the MongoDB Go driver's v2 bson package. A BSON root is a document, so the
// list-rooted datasets are wrapped as {"items": [...]}, as users store them.
var bsonCodec = &harness.Serializer{
	Name: "bson", Format: "bson", Library: "go.mongodb.org/mongo-driver/v2/bson", Module: "go.mongodb.org/mongo-driver/v2",
	Labels: []string{"binary", "schemaless", "reflective", "map-layout", "copying-decode"},
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		switch d.Kind {
		case model.UserKind:
			return bsonUser(d)
		case model.AndroidUsers:
			return bsonWrapped[model.SampleData](), nil
		case model.LogRecords:
			return bsonWrapped[model.TestClass](), nil
		}
		return &harness.Codec{
			Encode: func(dst []byte, msg any) ([]byte, error) {
				b, err := bson.Marshal(msg)
				return harness.AppendBytes(dst, b), err
			},
			Decode: func(src []byte) (any, error) {
				v := model.New(d.Kind)
				return v, bson.Unmarshal(src, v)
			},
		}, nil
	},
}

type bsonItems[T any] struct {
	Items []T `bson:"items"`
}

func bsonWrapped[T any]() *harness.Codec {
	return &harness.Codec{
		Encode: func(dst []byte, msg any) ([]byte, error) {
			b, err := bson.Marshal(bsonItems[T]{*msg.(*[]T)})
			return harness.AppendBytes(dst, b), err
		},
		Decode: func(src []byte) (any, error) {
			var w bsonItems[T]
			err := bson.Unmarshal(src, &w)
			return &w.Items, err
		},
	}
}

// bsonUser encodes the generic tree; a root that is not a record or map is wrapped as
// {"value": ...} (a BSON root is a document). Nested documents decode as maps.
func bsonUser(d *model.Dataset) (*harness.Codec, error) {
	noNUL := func(k string) string {
		if strings.IndexByte(k, 0) >= 0 {
			return "contains NUL, which BSON keys cannot"
		}
		return ""
	}
	if err := unfit("bson", d, withinInt64, noNUL); err != nil {
		return nil, err
	}
	root := d.User.Types.Message
	wrapped := root.Kind != model.URecord && root.Kind != model.UMap
	c := userCodec(d, func(msg any) ([]byte, error) {
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
	})
	return c, nil
}
