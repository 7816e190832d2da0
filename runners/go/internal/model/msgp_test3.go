package model

import "github.com/tinylib/msgp/msgp"

// Test3 is a bare MessagePack string in the seed's layout (8,195 bytes, not an array of
// one): the msgp methods the generated Test4 code calls are written by hand.

// MarshalMsg appends Test3 as a bare string.
func (z *Test3) MarshalMsg(b []byte) ([]byte, error) { return msgp.AppendString(b, z.S), nil }

// UnmarshalMsg reads a bare string.
func (z *Test3) UnmarshalMsg(b []byte) (rest []byte, err error) {
	z.S, rest, err = msgp.ReadStringBytes(b)
	return rest, err
}

// Msgsize bounds the encoded size.
func (z *Test3) Msgsize() int { return msgp.StringPrefixSize + len(z.S) }
