// Package libs holds one file per serializer library; this file lists them.
package libs

import "serbench/internal/harness"

// All is the registry: one line per serializer, in describe order.
var All = []*harness.Serializer{
	noop,
	memcpy,
	handwritten,
	jsonStd,
	protobuf,
	vtprotobuf,
	vmsgpack,
	msgpCodec,
	goJSON,
	sonicJSON,
	jsonIter,
	gobCodec,
	cborCodec,
	bsonCodec,
	hambaAvro,
	avroDynamic,
	goAvro,
	protobufDynamic,
	flatbuffersFull,
	flatbuffersLazy,
	// tunable-test-device (tunable.go) appends itself only when SERBENCH_TUNABLE_SCALE is set.
}
