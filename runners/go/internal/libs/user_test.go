package libs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"serbench/internal/harness"
	"serbench/internal/model"
	_ "serbench/typed/fixtures" // the fixtures' generated models
)

// loadUserFixture loads testdata/user/NAME.{json,types.json} with the schemas beside them
// (NAME.proto + NAME.pb from grpc_tools.protoc, NAME.avsc, NAME.fbs), as `serbench datasets add`
// writes them; a schema kind without a file is unavailable.
func loadUserFixture(t *testing.T, name, data string) *model.Dataset {
	t.Helper()
	dir, _ := filepath.Abs("testdata/user")
	at := func(f string) string { return filepath.Join(dir, f) }
	schemas := map[string]model.Schema{}
	if _, err := os.Stat(at(name + ".pb")); err == nil {
		message := "Root"
		if b, _ := os.ReadFile(at(name + ".proto")); !strings.Contains(string(b), "message Root ") {
			message = strings.Fields(string(b)[strings.Index(string(b), "message ")+8:])[0]
		}
		schemas["proto"] = model.Schema{Path: at(name + ".proto"), DescriptorSet: at(name + ".pb"), Message: message}
	} else {
		schemas["proto"] = model.Schema{Unavailable: unavailable[name]["proto"]}
	}
	for _, kind := range []string{"avsc", "fbs"} {
		if _, err := os.Stat(at(name + "." + kind)); err == nil {
			schemas[kind] = model.Schema{Path: at(name + "." + kind)}
		} else {
			schemas[kind] = model.Schema{Unavailable: unavailable[name][kind]}
		}
	}
	d, err := model.LoadUser(name, at(data), at(name+".types.json"), schemas)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// unavailable is what `serbench datasets add` writes for the fixtures' schemas it cannot map.
var unavailable = map[string]map[string]string{
	"special": {"proto": "protobuf: $.big holds integers beyond 64 bits (type bigint)",
		"avsc": "avro: $.u is uint64: Avro has no unsigned 64-bit type",
		"fbs":  "flatbuffers: $.big holds integers beyond 64 bits (type bigint)"},
	"bigints": {"proto": "protobuf: $.big holds integers beyond 64 bits (type bigint)",
		"avsc": "avro: $.big holds integers beyond 64 bits (type bigint)",
		"fbs":  "flatbuffers: $.big holds integers beyond 64 bits (type bigint)"},
	"lossy": {"proto": `protobuf: $["*"] is declared any, which has no direct mapping`,
		"avsc": `avro: $["*"] is declared any, which has no direct mapping`,
		"fbs":  `flatbuffers: $["*"] is declared any, which has no direct mapping`},
}

// TestUserDatasets: every serializer on the hand-made user datasets; what each must say.
// Typed rows run on the fixtures' generated models, "-dynamic" rows on the generic tree.
func TestUserDatasets(t *testing.T) {
	jsons := []string{"json", "go-json", "sonic", "jsoniter"}
	const negZero = "check_failed: message 0: $.score: 0 != -0" // -0.0 written as 0
	want := map[string]map[string]string{                       // fixture -> serializer -> status[: detail part]
		"listroot": {}, // avro: the enum through typegen's mirror, by symbol
		// gob, and vtprotobuf for a proto3 field, leave out a value equal to 0, -0.0 included
		"typed": {"sonic": negZero, "gob": negZero, "vtprotobuf": negZero},
		"special": {"msgpack-dynamic": "not_applicable: msgpack: 18446744073709551616 at $.big exceeds 64-bit integers",
			"msgpack":          "not_applicable: msgpack: $.big is bigint",
			"msgp":             "not_applicable: msgp: $.big is bigint",
			"bson-dynamic":     "not_applicable: bson: 18446744073709551616 at $.big exceeds int64",
			"bson":             "not_applicable: bson: 18446744073709551616 at $.big exceeds int64",
			"gob":              "check_failed: $.negzero: 0 != -0",
			"avro-dynamic":     "not_applicable: avro: $.u is uint64",
			"avro":             "not_applicable: avro: $.u is uint64",
			"goavro":           "not_applicable: avro: $.u is uint64",
			"protobuf-dynamic": "not_applicable: protobuf: $.big holds integers beyond 64 bits",
			"handwritten":      "not_applicable: handwritten: $.big is bigint",
			"memcpy":           "not_applicable: memcpy: copies the bytes of the handwritten row, which cannot carry this dataset (handwritten: $.big is bigint"},
		"bigints": {"msgpack-dynamic": "not_applicable: msgpack: 1180591620717411303424 at $.big exceeds 64-bit integers",
			"msgpack":      "not_applicable: msgpack: $.big is bigint",
			"msgp":         "not_applicable: msgp: $.big is bigint",
			"bson-dynamic": "not_applicable: bson: 1180591620717411303424 at $.big exceeds int64",
			"bson":         "not_applicable: bson: 1180591620717411303424 at $.big exceeds int64",
			"avro-dynamic": "not_applicable: avro: $.big holds", "goavro": "not_applicable: avro: $.big holds",
			"avro":             "not_applicable: avro: $.big holds",
			"protobuf-dynamic": "not_applicable: protobuf: $.big holds",
			"handwritten":      "not_applicable: handwritten: $.big is bigint",
			"memcpy":           "not_applicable: memcpy: copies the bytes of the handwritten row, which cannot carry this dataset (handwritten: $.big is bigint"},
		"lossy": {"avro-dynamic": `not_applicable: avro: $["*"] is declared any`, "goavro": `not_applicable: avro: $["*"] is declared any`,
			"avro":             `not_applicable: avro: $["*"] is declared any`,
			"protobuf-dynamic": `not_applicable: protobuf: $["*"] is declared any`,
			"handwritten":      "not_applicable: handwritten: $[*] is any",
			"memcpy":           "not_applicable: memcpy: copies the bytes of the handwritten row, which cannot carry this dataset (handwritten: $[*] is any"},
	}
	for fx, why := range unavailable {
		for _, row := range []string{"protobuf", "vtprotobuf"} {
			want[fx][row] = "not_applicable: " + why["proto"]
		}
		for _, row := range []string{"flatbuffers", "flatbuffers-lazy"} {
			want[fx][row] = "not_applicable: " + why["fbs"]
		}
	}
	for _, j := range jsons {
		for _, row := range []string{j, j + "-dynamic"} {
			want["special"][row] = "not_applicable: " + j + ": -Inf at $.inf has no JSON form"
		}
		// a whole float in an `any` value comes back as an integer from JSON text, and
		// without UseNumber (the typed rows) an integer as a float
		want["lossy"][j+"-dynamic"] = "check_failed: $.whole: 2 (int64) != 2 (float64)"
		want["lossy"][j] = "check_failed: $.int: 7 (float64) != 7 (int64)"
	}
	for fx, expect := range want {
		d := loadUserFixture(t, fx, fx+".json")
		for _, s := range All {
			_, p := harness.Prepare(s, d, d, []string{"encode", "decode"}, "", "")
			got := p.Status
			if p.Err != nil {
				got += ": " + p.Err.Message
			} else if p.Status != "ok" {
				got += ": " + p.Detail
			}
			exp, ok := expect[s.Name]
			switch {
			case s.UserNA != "":
				exp = "not_applicable: " + s.UserNA
			case !ok:
				exp = "ok"
			}
			if !strings.HasPrefix(got, exp) {
				t.Errorf("%s/%s: got %q, want %q", s.Name, fx, got, exp)
			}
		}
	}
}

// TestUserCheckFails: a changed value in check_data is named by its path for every
// serializer that takes the dataset.
func TestUserCheckFails(t *testing.T) {
	d := loadUserFixture(t, "typed", "typed.json")
	check := loadUserFixture(t, "typed", "typed.tampered.json")
	for _, s := range All {
		if _, p := harness.Prepare(s, d, d, []string{"decode"}, "", ""); p.Status != "ok" {
			continue // not applicable, or lossy on this fixture (TestUserDatasets)
		}
		_, p := harness.Prepare(s, d, check, []string{"decode"}, "", "")
		if p.Status != "check_failed" || !strings.HasPrefix(p.Detail, `message 1: $.home.tag: "" != "changed"`) {
			t.Errorf("%s: got %s %q", s.Name, p.Status, p.Detail)
		}
	}
}

// TestTypedModelNotBuilt: a user dataset whose types have no generated model (never
// built, or changed since the build) has its typed rows not applicable with the command
// that builds it, and its dynamic rows still run.
func TestTypedModelNotBuilt(t *testing.T) {
	dir := t.TempDir()
	types, err := os.ReadFile("testdata/user/typed.types.json")
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(dir, "typed.types.json")
	if err := os.WriteFile(changed, append(types, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	data, _ := filepath.Abs("testdata/user/typed.json")
	for _, c := range []struct{ name, types string }{
		{"never-built", "testdata/user/typed.types.json"}, // no model under this name
		{"typed", changed}, // the model of other types
	} {
		d, err := model.LoadUser(c.name, data, c.types, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range []string{"json", "msgp", "json-dynamic"} {
			_, p := harness.Prepare(find(row), d, d, []string{"decode"}, "", "")
			want := "ok"
			if find(row).Typed {
				want = "not_applicable"
				if p.Err == nil || p.Err.Message != model.NotBuilt {
					t.Errorf("%s/%s: reason %+v, want %q", row, c.name, p.Err, model.NotBuilt)
				}
			}
			if p.Status != want {
				t.Errorf("%s/%s: %s, want %s", row, c.name, p.Status, want)
			}
		}
	}
}

// TestUserFlatBuffersSizes: the flatbuffers rows on the fixtures the .fbs maps, through
// the glue typegen generated from each fixture's .fbs (the map keys of typed's counts all
// take 8 bytes, so Go's map order does not change the size).
func TestUserFlatBuffersSizes(t *testing.T) {
	for fx, want := range map[string]int{"typed": 1022, "listroot": 224} {
		d := loadUserFixture(t, fx, fx+".json")
		for _, row := range []string{"flatbuffers", "flatbuffers-lazy"} {
			_, p := harness.Prepare(find(row), d, d, []string{"encode", "decode"}, "", "")
			if p.Status != "ok" || p.Sizes["encoded"] != want {
				t.Errorf("%s/%s: %s %q, %d bytes, want ok and %d", row, fx, p.Status, p.Detail, p.Sizes["encoded"], want)
			}
		}
	}
}
