package harness

import (
	"bytes"
	"compress/zlib"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Compressor is one of the protocol's codecs with reusable state.
type Compressor interface {
	Compress(dst, src []byte) []byte
	Decompress(dst, src []byte) ([]byte, error)
}

// Codecs are the codec names the runner has, in reporting order.
var Codecs = []string{"zlib", "zstd", "lz4"}

// NewCompressor returns a fresh compressor: zlib level 6, zstd level 3, lz4 frame default.
func NewCompressor(name string) Compressor {
	switch name {
	case "zlib":
		return &zlibC{}
	case "zstd":
		enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
		dec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		return &zstdC{enc, dec}
	case "lz4":
		return &lz4C{}
	}
	return nil
}

type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

type zlibC struct {
	w   *zlib.Writer
	out sliceWriter
	r   io.ReadCloser
	in  bytes.Reader
}

func (z *zlibC) Compress(dst, src []byte) []byte {
	z.out.b = dst
	if z.w == nil {
		z.w, _ = zlib.NewWriterLevel(&z.out, 6)
	} else {
		z.w.Reset(&z.out)
	}
	_, _ = z.w.Write(src)
	_ = z.w.Close()
	return z.out.b
}

func (z *zlibC) Decompress(dst, src []byte) ([]byte, error) {
	z.in.Reset(src)
	var err error
	if z.r == nil {
		z.r, err = zlib.NewReader(&z.in)
	} else {
		err = z.r.(zlib.Resetter).Reset(&z.in, nil)
	}
	if err != nil {
		return dst, err
	}
	return readAll(dst, z.r)
}

func readAll(dst []byte, r io.Reader) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

type zstdC struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

func (z *zstdC) Compress(dst, src []byte) []byte { return z.enc.EncodeAll(src, dst) }

func (z *zstdC) Decompress(dst, src []byte) ([]byte, error) { return z.dec.DecodeAll(src, dst) }

type lz4C struct {
	w   *lz4.Writer
	out sliceWriter
	r   *lz4.Reader
	in  bytes.Reader
}

func (l *lz4C) Compress(dst, src []byte) []byte {
	l.out.b = dst
	if l.w == nil {
		l.w = lz4.NewWriter(&l.out)
	} else {
		l.w.Reset(&l.out)
	}
	_, _ = l.w.Write(src)
	_ = l.w.Close()
	return l.out.b
}

func (l *lz4C) Decompress(dst, src []byte) ([]byte, error) {
	l.in.Reset(src)
	if l.r == nil {
		l.r = lz4.NewReader(&l.in)
	} else {
		l.r.Reset(&l.in)
	}
	return readAll(dst, l.r)
}
