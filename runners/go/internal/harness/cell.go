package harness

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"

	"serbench/internal/model"
)

// Sinks the compiler cannot remove: every operation's result is stored here.
var (
	SinkBytes []byte
	SinkAny   any
	SinkInt   int
)

// Cell is one prepared (serializer, dataset) pair with everything its operations need.
type Cell struct {
	ser        *Serializer
	data       *model.Dataset
	codec      *Codec
	encoded    []byte            // the whole encoded dataset (framed for streams)
	packed     map[string][]byte // per codec: the compressed form decoded by "c+decode"
	comp       map[string]Compressor
	buf        []byte // reused output buffer
	scratch    []byte // reused per-message buffer
	cbuf       []byte // reused compression output
	decodeOnly bool
	ops        []string // the operations prepare was asked for
}

// Prepared tells whether op was among the operations the cell was prepared for.
func (c *Cell) Prepared(op string) bool { return slices.Contains(c.ops, op) }

func appendFrame(dst, msg []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(msg)))
	return append(dst, msg...)
}

// EncodeAll encodes the whole dataset into c.buf (reused) and returns it.
func (c *Cell) encodeAll() ([]byte, error) {
	d, enc := c.data, c.codec.Encode
	if !d.Stream {
		b, err := enc(c.buf[:0], d.Items[0])
		c.buf = b
		return b, err
	}
	buf := c.buf[:0]
	var err error
	if c.ser.SelfDelimiting {
		for i := 0; i < d.Count; i++ {
			if buf, err = enc(buf, d.Items[i%len(d.Items)]); err != nil {
				return nil, err
			}
		}
	} else {
		for i := 0; i < d.Count; i++ {
			if c.scratch, err = enc(c.scratch[:0], d.Items[i%len(d.Items)]); err != nil {
				return nil, err
			}
			buf = appendFrame(buf, c.scratch)
		}
	}
	c.buf = buf
	return buf, nil
}

// encodeCompressed encodes then compresses (each message on its own for streams).
func (c *Cell) encodeCompressed(codec string) ([]byte, error) {
	d, enc, z := c.data, c.codec.Encode, c.comp[codec]
	var err error
	if !d.Stream {
		if c.scratch, err = enc(c.scratch[:0], d.Items[0]); err != nil {
			return nil, err
		}
		c.buf = z.Compress(c.buf[:0], c.scratch)
		return c.buf, nil
	}
	buf := c.buf[:0]
	for i := 0; i < d.Count; i++ {
		if c.scratch, err = enc(c.scratch[:0], d.Items[i%len(d.Items)]); err != nil {
			return nil, err
		}
		c.cbuf = z.Compress(c.cbuf[:0], c.scratch)
		buf = appendFrame(buf, c.cbuf)
	}
	c.buf = buf
	return buf, nil
}

// compressedSize is the size encodeCompressed's buffer would have, computed from one
// compression of each distinct item (message i is items[i % len(items)]).
func (c *Cell) compressedSize(codec string) (int, error) {
	d, z := c.data, c.comp[codec]
	total := 0
	for j, item := range d.Items {
		var err error
		if c.scratch, err = c.codec.Encode(c.scratch[:0], item); err != nil {
			return 0, err
		}
		c.cbuf = z.Compress(c.cbuf[:0], c.scratch)
		reps := d.Count / len(d.Items)
		if j < d.Count%len(d.Items) {
			reps++
		}
		total += reps * (uvarintLen(len(c.cbuf)) + len(c.cbuf))
	}
	return total, nil
}

func uvarintLen(n int) int {
	k := 1
	for ; n >= 0x80; n >>= 7 {
		k++
	}
	return k
}

// frames calls fn with each message's bytes of a varint-framed stream.
func frames(src []byte, fn func(i int, msg []byte) error) error {
	for i := 0; len(src) > 0; i++ {
		n, k := binary.Uvarint(src)
		if k <= 0 || uint64(len(src)-k) < n {
			return fmt.Errorf("bad frame at message %d", i)
		}
		if err := fn(i, src[k:k+int(n)]); err != nil {
			return err
		}
		src = src[k+int(n):]
	}
	return nil
}

// decodeAll decodes an encoded dataset; each message goes to fn.
func (c *Cell) decodeAll(src []byte, fn func(i int, v any) error) error {
	if !c.data.Stream {
		v, err := c.codec.Decode(src)
		if err != nil {
			return err
		}
		return fn(0, v)
	}
	if c.ser.SelfDelimiting {
		for i := 0; len(src) > 0; i++ {
			v, n, err := c.codec.Next(src)
			if err != nil {
				return fmt.Errorf("message %d: %w", i, err)
			}
			if err := fn(i, v); err != nil {
				return err
			}
			src = src[n:]
		}
		return nil
	}
	dec := c.codec.Decode
	return frames(src, func(i int, msg []byte) error {
		v, err := dec(msg)
		if err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
		return fn(i, v)
	})
}

func sink(_ int, v any) error { SinkAny = v; return nil }

// decompressDecode reads the compressed form of the dataset back.
func (c *Cell) decompressDecode(codec string) error {
	z, src := c.comp[codec], c.packed[codec]
	var err error
	if !c.data.Stream {
		if c.cbuf, err = z.Decompress(c.cbuf[:0], src); err != nil {
			return err
		}
		v, err := c.codec.Decode(c.cbuf)
		SinkAny = v
		return err
	}
	return frames(src, func(_ int, msg []byte) error {
		if c.cbuf, err = z.Decompress(c.cbuf[:0], msg); err != nil {
			return err
		}
		var v any
		if c.codec.Next != nil {
			v, _, err = c.codec.Next(c.cbuf)
		} else {
			v, err = c.codec.Decode(c.cbuf)
		}
		SinkAny = v
		return err
	})
}

// Op returns the body of one operation.
func (c *Cell) Op(op string) (func() error, error) {
	switch op {
	case "encode":
		return func() error { b, err := c.encodeAll(); SinkBytes = b; return err }, nil
	case "decode":
		return func() error { return c.decodeAll(c.encoded, sink) }, nil
	}
	for _, z := range Codecs {
		switch op {
		case "encode+" + z:
			return func() error { b, err := c.encodeCompressed(z); SinkBytes = b; return err }, nil
		case z + "+decode":
			return func() error { return c.decompressDecode(z) }, nil
		}
	}
	return nil, fmt.Errorf("unknown operation %q", op)
}

// Check decodes src and compares every message with check (the first difference as a path).
func (c *Cell) Check(src []byte, check *model.Dataset) (bool, string) {
	n := 0
	err := c.decodeAll(src, func(i int, v any) error {
		n++
		if i >= check.Count {
			return fmt.Errorf("more messages than the %d expected", check.Count)
		}
		if check.Kind == model.UserKind {
			if check.Model != nil {
				v = check.Model.ToTree(v)
			}
			if d := model.TreeDiff(check.MessagePath(i), v, check.Trees[i%len(check.Trees)]); d != "" {
				return diffError(d)
			}
			return nil
		}
		prefix := "$"
		if check.Stream {
			prefix = fmt.Sprintf("$[%d]", i)
		}
		if d := model.Diff(prefix, v, check.Message(i)); d != "" {
			return diffError(d)
		}
		return nil
	})
	var de diffError
	if errors.As(err, &de) {
		return false, string(de)
	}
	if err != nil {
		return false, "cannot decode: " + err.Error()
	}
	if n != check.Count {
		return false, fmt.Sprintf("%d messages decoded, %d expected", n, check.Count)
	}
	if check.Stream {
		return true, fmt.Sprintf("%d messages equal", n)
	}
	return true, "message equal"
}

// Prepared is the prepare reply's payload.
type Prepared struct {
	Status      string
	CheckOK     bool
	Detail      string // the check's detail; empty when no check was made
	Sizes       map[string]int
	Unsupported []string
	Err         *ErrorBody
}

// ErrorBody is a protocol error object.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Prepare builds the cell: encode, check, sizes, compressed forms, dump. A nil check
// (verify: false, an earlier process of the run checked this cell) skips the round trip,
// the comparison and the codec sizes: only what the operations time is built.
func Prepare(ser *Serializer, data, check *model.Dataset, ops []string, dumpPath, decodeFrom string) (c *Cell, p Prepared) {
	defer func() {
		if r := recover(); r != nil {
			c = nil
			p = Prepared{Status: "error", Err: &ErrorBody{"exception", fmt.Sprint("panic: ", r)}}
		}
	}()
	if data.Kind == model.UserKind && ser.UserNA != "" {
		return nil, Prepared{Status: "not_applicable", Err: &ErrorBody{"not_applicable", ser.UserNA}}
	}
	if data.Kind == model.UserKind && ser.Typed {
		var why string
		if data, why = data.TypedView(); why == "" && check != nil {
			check, why = check.TypedView()
		}
		if why != "" {
			return nil, Prepared{Status: "not_applicable", Err: &ErrorBody{"not_applicable", why}}
		}
	}
	codec, err := ser.Codec(data)
	if err != nil {
		if IsNA(err) {
			return nil, Prepared{Status: "not_applicable", Err: &ErrorBody{"not_applicable", err.Error()}}
		}
		return nil, Prepared{Status: "error", Err: &ErrorBody{"exception", err.Error()}}
	}
	if ser.SelfDelimiting && codec.Next == nil {
		why := ser.Name + ": self-delimiting, but its codec has no Next to read a stream"
		return nil, Prepared{Status: "error", Err: &ErrorBody{"exception", why}}
	}
	c = &Cell{ser: ser, data: data, codec: codec, packed: map[string][]byte{}, comp: map[string]Compressor{}, ops: ops}
	enc, err := c.encodeAll()
	if err != nil {
		if IsNA(err) {
			return nil, Prepared{Status: "not_applicable", Err: &ErrorBody{"not_applicable", err.Error()}}
		}
		return nil, Prepared{Status: "error", Err: &ErrorBody{"exception", "encode: " + err.Error()}}
	}
	c.encoded = append([]byte(nil), enc...)
	c.buf = nil
	if dumpPath != "" {
		if err := os.WriteFile(dumpPath, c.encoded, 0o644); err != nil {
			return nil, Prepared{Status: "error", Err: &ErrorBody{"exception", err.Error()}}
		}
	}
	p.Sizes = map[string]int{"encoded": len(c.encoded)}
	for _, z := range Codecs {
		c.comp[z] = NewCompressor(z)
		timed := slices.Contains(ops, z+"+decode")
		if check == nil && !timed {
			continue // no size wanted, no compressed form to keep
		}
		if !timed && data.Stream && len(data.Items) < data.Count {
			// the size only: each distinct message compressed once, counted per repetition
			n, err := c.compressedSize(z)
			if err != nil {
				return nil, Prepared{Status: "error", Err: &ErrorBody{"exception", err.Error()}}
			}
			p.Sizes[z] = n
			continue
		}
		b, err := c.encodeCompressed(z)
		if err != nil {
			return nil, Prepared{Status: "error", Err: &ErrorBody{"exception", err.Error()}}
		}
		if check != nil {
			p.Sizes[z] = len(b)
		}
		if timed { // kept only when it will be decoded
			c.packed[z] = append([]byte(nil), b...)
		}
	}
	c.buf = nil
	src := c.encoded
	if decodeFrom != "" {
		if src, err = os.ReadFile(decodeFrom); err != nil {
			return nil, Prepared{Status: "error", Err: &ErrorBody{"bad_data", err.Error()}}
		}
		c.encoded = src
		for _, op := range ops {
			if op != "decode" {
				p.Unsupported = append(p.Unsupported, op)
			}
		}
	}
	if check != nil {
		ok, detail := c.checkSafe(src, check)
		p.CheckOK, p.Detail = ok, detail
		if !ok {
			p.Status = "check_failed"
			return nil, p
		}
	}
	if check != nil && decodeFrom == "" {
		// the compressed forms to be timed must read back too
		for z := range c.packed {
			if err := c.decompressDecode(z); err != nil {
				p.Status, p.CheckOK, p.Detail = "check_failed", false, z+"+decode: "+err.Error()
				return nil, p
			}
		}
	}
	p.Status = "ok"
	if p.Unsupported == nil {
		p.Unsupported = []string{}
	}
	return c, p
}

func (c *Cell) checkSafe(src []byte, check *model.Dataset) (ok bool, detail string) {
	if c.codec.Verify != nil {
		saved := c.codec.Decode
		c.codec.Decode = c.codec.Verify
		defer func() { c.codec.Decode = saved }()
	}
	defer func() {
		if r := recover(); r != nil {
			ok, detail = false, fmt.Sprint("cannot decode: decoder panicked: ", r)
		}
	}()
	return c.Check(src, check)
}

type diffError string

func (e diffError) Error() string { return string(e) }
