// Package hw holds the primitives of the handwritten layout, which tools/typegen writes
// code for per dataset (hw.go of each typed package): little-endian fixed-width numbers,
// bool as one byte, strings and bytes as a u32 length and the bytes, lists and maps as a
// u32 count and the items, optional values after a presence byte. The Rust and C++
// runners write the same bytes.
package hw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

var le = binary.LittleEndian

// AppendU32 appends v little-endian (32-bit integers and enum ordinals).
func AppendU32(b []byte, v uint32) []byte { return le.AppendUint32(b, v) }

// AppendU64 appends v little-endian (64-bit integers and timestamps in milliseconds).
func AppendU64(b []byte, v uint64) []byte { return le.AppendUint64(b, v) }

// AppendStr appends a u32 length and the bytes of s.
func AppendStr(b []byte, s string) []byte {
	return append(le.AppendUint32(b, uint32(len(s))), s...)
}

// AppendBytes appends a u32 length and p.
func AppendBytes(b, p []byte) []byte {
	return append(le.AppendUint32(b, uint32(len(p))), p...)
}

// AppendBool appends 1 or 0.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// AppendF32 appends the IEEE 754 bits of v (NaN payloads and -0.0 kept).
func AppendF32(b []byte, v float32) []byte { return le.AppendUint32(b, math.Float32bits(v)) }

// AppendF64 appends the IEEE 754 bits of v.
func AppendF64(b []byte, v float64) []byte { return le.AppendUint64(b, math.Float64bits(v)) }

// ErrShort is the error of input that ends inside a value.
var ErrShort = errors.New("handwritten: truncated input")

// Reader reads the layout; the first error sticks (later reads return zeros), so the
// generated decoders check it once, at the end (Done).
type Reader struct {
	b   []byte
	err error
}

// NewReader reads src.
func NewReader(src []byte) *Reader { return &Reader{b: src} }

func (r *Reader) short() {
	r.err, r.b = ErrShort, nil
}

// U32 reads a little-endian uint32.
func (r *Reader) U32() uint32 {
	if len(r.b) < 4 {
		r.short()
		return 0
	}
	v := le.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

// U64 reads a little-endian uint64.
func (r *Reader) U64() uint64 {
	if len(r.b) < 8 {
		r.short()
		return 0
	}
	v := le.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// F32 reads the bits of a float32.
func (r *Reader) F32() float32 { return math.Float32frombits(r.U32()) }

// F64 reads the bits of a float64.
func (r *Reader) F64() float64 { return math.Float64frombits(r.U64()) }

// Bool reads one byte: non-zero is true (also a presence byte).
func (r *Reader) Bool() bool {
	if len(r.b) < 1 {
		r.short()
		return false
	}
	v := r.b[0] != 0
	r.b = r.b[1:]
	return v
}

// Str reads a u32 length and that many bytes.
func (r *Reader) Str() string {
	return string(r.take(int(r.U32())))
}

// Bytes reads a u32 length and a copy of that many bytes.
func (r *Reader) Bytes() []byte {
	return append([]byte{}, r.take(int(r.U32()))...)
}

func (r *Reader) take(n int) []byte {
	if len(r.b) < n {
		r.short()
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

// Count reads a u32 count of items taking at least min bytes each, refusing a count the
// rest of the input cannot hold (so a corrupt count allocates nothing); items of no bytes
// (null) cannot be bounded so.
func (r *Reader) Count(min int) int {
	n := int(r.U32())
	if min > 0 && n > len(r.b)/min {
		r.short()
		return 0
	}
	return n
}

// Enum reads an ordinal, which must be below n (the enum's symbols).
func (r *Reader) Enum(n int32) int32 {
	v := int32(r.U32())
	if r.err == nil && (v < 0 || v >= n) {
		r.err, r.b = fmt.Errorf("handwritten: enum ordinal %d out of range [0, %d)", v, n), nil
	}
	return v
}

// Done is the decode's outcome: the first error, or trailing bytes.
func (r *Reader) Done() error {
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("handwritten: %d trailing bytes", len(r.b))
	}
	return nil
}
