package libs

import (
	"fmt"
	"os"
	"strconv"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// TunableScaleEnv names the environment variable that enables the tunable test device.
// `serbench run` passes its environment on to the runner processes, so
// `SERBENCH_TUNABLE_SCALE=1.05 serbench run ...` measures a device made 5% slower.
const TunableScaleEnv = "SERBENCH_TUNABLE_SCALE"

// tunableStepsPerByte sets the device's cost: hash steps per encoded byte at scale 1. At
// about a nanosecond per dependent step it outweighs the memcpy it wraps some 20-50 times,
// so the scale sets the operation's time almost proportionally.
const tunableStepsPerByte = 4

// tunableSink keeps the hash alive, so the compiler cannot drop the workload.
var tunableSink uint64

// The tunable test device (for benchmarks/compare_power.py, never a real library): the
// memcpy baseline's encode and decode, each followed by a fixed hash workload over the
// message's bytes of round(scale x tunableStepsPerByte x length) steps. Registered only
// when SERBENCH_TUNABLE_SCALE is set, so ordinary runs never list it.
func init() {
	text := os.Getenv(TunableScaleEnv)
	if text == "" {
		return
	}
	scale, err := strconv.ParseFloat(text, 64)
	if err != nil || !(scale > 0 && scale < 1000) {
		fmt.Fprintf(os.Stderr, "%s=%q: want a positive number such as 1.05\n", TunableScaleEnv, text)
		os.Exit(2)
	}
	All = append(All, &harness.Serializer{
		Name: "tunable-test-device", Format: "custom-binary",
		Library: "serbench test device x" + strconv.FormatFloat(scale, 'f', -1, 64),
		Labels:  []string{"baseline"},
		Typed:   true,
		Codec: func(d *model.Dataset) (*harness.Codec, error) {
			inner, err := memcpy.Codec(d)
			if err != nil {
				return nil, err
			}
			work := func(b []byte) {
				tunableSink += tunableHash(b, int(scale*tunableStepsPerByte*float64(len(b))+0.5))
			}
			return &harness.Codec{
				Encode: func(dst []byte, msg any) ([]byte, error) {
					start := len(dst)
					out, err := inner.Encode(dst, msg)
					work(out[start:])
					return out, err
				},
				Decode: func(src []byte) (any, error) {
					work(src)
					return inner.Decode(src)
				},
				Verify: inner.Verify,
			}, nil
		},
	})
}

// tunableHash runs steps dependent multiply-xor steps (FNV-1a style) cycling over b.
func tunableHash(b []byte, steps int) uint64 {
	h := uint64(14695981039346656037)
	if len(b) == 0 {
		return h
	}
	for steps > 0 {
		chunk := b
		if steps < len(chunk) {
			chunk = chunk[:steps]
		}
		for _, c := range chunk {
			h = (h ^ uint64(c)) * 1099511628211
		}
		steps -= len(chunk)
	}
	return h
}
