package libs

import (
	"bytes"

	"serbench/internal/harness"
	"serbench/internal/model"

	"github.com/vmihailenco/msgpack/v5"
)

func dynamicPB(d *model.Dataset) (*harness.Codec, error) {
	return nil, harness.NA("protobuf: user datasets not implemented")
}

func genericMsgpack(d *model.Dataset, enc *msgpack.Encoder, w *appendWriter, dec *msgpack.Decoder, r *bytes.Reader) (*harness.Codec, error) {
	return nil, harness.NA("msgpack: user datasets not implemented")
}

func bsonUser(d *model.Dataset) (*harness.Codec, error) {
	return nil, harness.NA("bson: user datasets not implemented")
}
