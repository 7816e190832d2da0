package libs

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"serbench/internal/harness"
	"serbench/internal/model"
	"serbench/typed/androidusers"
)

// The seeds' byte-exact sizes: S1 as one list, S2 per message (protobuf including its
// varint length prefix; MessagePack concatenated; handwritten, and memcpy copying it, in
// the layout the Rust and C++ runners write, 8, 8, 8,196 and 8,212 bytes per S2 message
// plus the stream's varint length prefix, as the layout does not delimit itself; avro
// through typegen's mirror, S1's enum by symbol and Test1's uint32 as Avro int; flatbuffers
// plus the stream's varint length prefix where there are several messages).
var wantSizes = map[string]map[string]int{
	"android-users":       {"protobuf": 560, "vtprotobuf": 560, "msgpack": 383, "msgp": 383, "handwritten": 834, "memcpy": 834, "avro": 354, "flatbuffers": 1320},
	"pb-vs-msgpack-test1": {"protobuf": 5, "vtprotobuf": 5, "msgpack": 3, "msgp": 3, "handwritten": 9, "memcpy": 9, "avro": 3, "flatbuffers": 24 + 1},
	"pb-vs-msgpack-test2": {"protobuf": 23, "vtprotobuf": 23, "msgpack": 3, "msgp": 3, "handwritten": 9, "memcpy": 9, "avro": 3, "flatbuffers": 24 + 1},
	"pb-vs-msgpack-test3": {"protobuf": 8197, "vtprotobuf": 8197, "msgpack": 8195, "msgp": 8195, "handwritten": 8198, "memcpy": 8198, "avro": 8197, "flatbuffers": 8220 + 2},
	"pb-vs-msgpack-test4": {"protobuf": 8230, "vtprotobuf": 8230, "msgpack": 8202, "msgp": 8202, "handwritten": 8214, "memcpy": 8214, "avro": 8201, "flatbuffers": 8280 + 2},
}

func find(name string) *harness.Serializer {
	for _, s := range All {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func TestSeedSizes(t *testing.T) {
	for ds, want := range wantSizes {
		d := testDataset(t, ds)
		for name, size := range want {
			s := find(name)
			if s == nil {
				t.Errorf("no serializer %s", name)
				continue
			}
			cell, p := harness.Prepare(s, d, d, []string{"encode"}, "", "")
			if cell == nil {
				t.Errorf("%s/%s: %s %s", name, ds, p.Status, p.Detail)
				continue
			}
			per := p.Sizes["encoded"] / d.Count
			if per*d.Count != p.Sizes["encoded"] || per != size {
				t.Errorf("%s/%s: %d bytes for %d messages, want %d per message", name, ds, p.Sizes["encoded"], d.Count, size)
			}
		}
	}
}

// TestRoundTrips prepares every serializer on every built-in dataset: each must check
// OK (or be not applicable as describe says).
func TestRoundTrips(t *testing.T) {
	for _, ds := range model.Builtin() {
		d := testDataset(t, ds)
		for _, s := range All {
			_, p := harness.Prepare(s, d, d, []string{"encode", "decode"}, "", "")
			applicable := s.Applicable == nil || s.Applicable(d.Model) == nil
			switch {
			case applicable && p.Status != "ok":
				t.Errorf("%s/%s: %s %s %v", s.Name, ds, p.Status, p.Detail, p.Err)
			case !applicable && p.Status != "not_applicable":
				t.Errorf("%s/%s: describe says not applicable, prepare says %s", s.Name, ds, p.Status)
			}
		}
	}
}

// TestTamperedCheckFails: a changed field is named by its path.
func TestTamperedCheckFails(t *testing.T) {
	d := testDataset(t, "android-users")
	orig := *d.Items[0].(*[]androidusers.SampleData)
	tampered := append([]androidusers.SampleData(nil), orig...)
	tampered[17].Age++
	check := &model.Dataset{Name: d.Name, Kind: d.Kind, Count: 1, Items: []any{&tampered}}
	_, p := harness.Prepare(find("protobuf"), d, check, []string{"decode"}, "", "")
	if p.Status != "check_failed" || !strings.HasPrefix(p.Detail, "$[17].age: ") {
		t.Fatalf("got %s %q", p.Status, p.Detail)
	}
}

// TestUnverifiedPrepare: a nil check (verify: false) encodes once, decodes nothing and
// reports the encoded size only, yet the cell runs every operation it was prepared for;
// a typed row on a user dataset still answers what a verified prepare answers.
func TestUnverifiedPrepare(t *testing.T) {
	ops := []string{"encode", "decode", "encode+lz4", "zstd+decode"}
	for _, ds := range []string{"android-users", "pb-vs-msgpack-test1"} {
		d := testDataset(t, ds)
		_, full := harness.Prepare(find("protobuf"), d, d, ops, "", "")
		decodes := 0
		counted := *find("protobuf")
		counted.Codec = func(d *model.Dataset) (*harness.Codec, error) {
			c, err := find("protobuf").Codec(d)
			if err == nil {
				decode := c.Decode
				c.Decode = func(src []byte) (any, error) { decodes++; return decode(src) }
			}
			return c, err
		}
		dump := filepath.Join(t.TempDir(), "dump.bin")
		cell, p := harness.Prepare(&counted, d, nil, ops, dump, "")
		if p.Status != "ok" || p.Detail != "" || decodes != 0 || !maps.Equal(p.Sizes, map[string]int{"encoded": full.Sizes["encoded"]}) {
			t.Fatalf("%s: %s %q, %d decodes, sizes %v", ds, p.Status, p.Detail, decodes, p.Sizes)
		}
		if b, err := os.ReadFile(dump); err != nil || len(b) != full.Sizes["encoded"] {
			t.Errorf("%s: dump of %d bytes (%v), want %d", ds, len(b), err, full.Sizes["encoded"])
		}
		for _, op := range ops {
			run, err := cell.Op(op)
			if err == nil {
				err = run()
			}
			if err != nil {
				t.Errorf("%s %s: %v", ds, op, err)
			}
		}
	}
	for _, fx := range []string{"typed", "special"} {
		d := loadUserFixture(t, fx, fx+".json")
		_, full := harness.Prepare(find("msgp"), d, d, []string{"decode"}, "", "")
		_, p := harness.Prepare(find("msgp"), d, nil, []string{"decode"}, "", "")
		if p.Status != full.Status || !reflect.DeepEqual(p.Err, full.Err) {
			t.Errorf("msgp/%s: %s %v, verified %s %v", fx, p.Status, p.Err, full.Status, full.Err)
		}
	}
}

// testDataset loads a quick-scale canonical file written by `serbench datasets --write`
// (SERBENCH_DATA overrides the folder).
func testDataset(t *testing.T, name string) *model.Dataset {
	t.Helper()
	dir := os.Getenv("SERBENCH_DATA")
	if dir == "" {
		dir = "../../../../.serbench/data/quick"
	}
	files, _ := filepath.Glob(filepath.Join(dir, name+".*.json"))
	if len(files) == 0 {
		t.Skipf("no canonical %s file in %s: run `serbench datasets --scale quick --write`", name, dir)
	}
	d, err := model.Load(name, files[0])
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAvroLibrariesInteroperate: hamba/avro (structs and generic) and goavro read each
// other's bytes (block sizes and map order differ, so the bytes themselves may not).
func TestAvroLibrariesInteroperate(t *testing.T) {
	names := []string{"avro", "avro-dynamic", "goavro"}
	for _, ds := range model.Builtin() {
		d := testDataset(t, ds)
		for _, writer := range names {
			dump := filepath.Join(t.TempDir(), "dump.bin")
			if _, p := harness.Prepare(find(writer), d, d, []string{"encode"}, dump, ""); p.Status != "ok" {
				t.Fatalf("%s/%s: %s %s", writer, ds, p.Status, p.Detail)
			}
			for _, reader := range names {
				if _, p := harness.Prepare(find(reader), d, d, []string{"decode"}, "", dump); p.Status != "ok" {
					t.Errorf("%s reading %s's %s: %s %s", reader, writer, ds, p.Status, p.Detail)
				}
			}
		}
	}
}

// TestCompressedSizesWithoutPackedForms: the compressed sizes prepare computes from the
// distinct messages equal those of the fully compressed stream.
func TestCompressedSizesWithoutPackedForms(t *testing.T) {
	for _, ds := range []string{"pb-vs-msgpack-test1", "pb-vs-msgpack-test4"} {
		d := testDataset(t, ds)
		for _, name := range []string{"protobuf", "msgpack"} {
			_, short := harness.Prepare(find(name), d, d, []string{"encode"}, "", "")
			_, full := harness.Prepare(find(name), d, d, []string{"zlib+decode", "zstd+decode", "lz4+decode"}, "", "")
			for _, z := range harness.Codecs {
				if short.Sizes[z] != full.Sizes[z] || full.Sizes[z] == 0 {
					t.Errorf("%s/%s %s: %d != %d", name, ds, z, short.Sizes[z], full.Sizes[z])
				}
			}
		}
	}
}

// TestFlatBuffersDeterministic: a message without maps comes out in the same bytes every
// time and log-records in its known total size (quick scale; the seed's hand-written glue
// built a table's children in this order). Maps are written in Go's map order, so a message
// holding one (S3, S4) may move a string's padding between encodings.
func TestFlatBuffersDeterministic(t *testing.T) {
	want := map[string]int{"log-records": 368_128}
	for ds, size := range want {
		d := testDataset(t, ds)
		c, err := fbCodec(d, false)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, msg := range d.Items {
			first, _ := c.Encode(nil, msg)
			for range 3 {
				if again, _ := c.Encode(nil, msg); !bytes.Equal(again, first) {
					t.Fatalf("%s: two encodings of one message differ", ds)
				}
			}
			total += len(first)
		}
		if total != size {
			t.Errorf("%s: %d bytes, want %d", ds, total, size)
		}
	}
}
