// Package libs holds one file per serializer library; this file lists them.
package libs

import (
	"serbench/internal/harness"
	_ "serbench/typed" // the generated model of every dataset
)

// All is the registry: one line per serializer, in describe order.
var All = []*harness.Serializer{
	noop,
	memcpy,
	handwritten,
	jsonStd,
	jsonStdDynamic,
	protobuf,
	vtprotobuf,
	vmsgpack,
	vmsgpackDynamic,
	msgpCodec,
	goJSON,
	goJSONDynamic,
	sonicJSON,
	sonicDynamic,
	jsonIter,
	jsonIterDynamic,
	gobCodec,
	gobDynamic,
	cborCodec,
	cborDynamic,
	bsonCodec,
	bsonDynamic,
	hambaAvro,
	avroDynamic,
	goAvro,
	protobufDynamic,
	flatbuffersFull,
	flatbuffersLazy,
	// tunable-test-device (tunable.go) appends itself only when SERBENCH_TUNABLE_SCALE is set.
}
