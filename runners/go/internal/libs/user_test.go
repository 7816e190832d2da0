package libs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// loadUserFixture loads testdata/user/NAME.{json,types.json} with the schemas beside them
// (NAME.proto + NAME.pb from grpc_tools.protoc, NAME.avsc), as `serbench datasets add`
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
	if _, err := os.Stat(at(name + ".avsc")); err == nil {
		schemas["avsc"] = model.Schema{Path: at(name + ".avsc")}
	} else {
		schemas["avsc"] = model.Schema{Unavailable: unavailable[name]["avsc"]}
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
		"avsc": "avro: $.u is uint64: Avro has no unsigned 64-bit type"},
	"bigints": {"proto": "protobuf: $.big holds integers beyond 64 bits (type bigint)",
		"avsc": "avro: $.big holds integers beyond 64 bits (type bigint)"},
	"lossy": {"proto": `protobuf: $["*"] is declared any, which has no direct mapping`,
		"avsc": `avro: $["*"] is declared any, which has no direct mapping`},
}

// TestUserDatasets: every serializer on the hand-made user datasets; what each must say.
func TestUserDatasets(t *testing.T) {
	jsons := []string{"json", "go-json", "sonic", "jsoniter"}
	want := map[string]map[string]string{ // fixture -> serializer -> status[: detail part]
		"typed": {}, "listroot": {},
		"special": {"msgpack": "not_applicable: msgpack: 18446744073709551616 at $.big exceeds 64-bit integers",
			"bson":             "not_applicable: bson: 18446744073709551616 at $.big exceeds int64",
			"avro-dynamic":     "not_applicable: avro: $.u is uint64",
			"goavro":           "not_applicable: avro: $.u is uint64",
			"protobuf-dynamic": "not_applicable: protobuf: $.big holds integers beyond 64 bits"},
		"bigints": {"msgpack": "not_applicable: msgpack: 1180591620717411303424 at $.big exceeds 64-bit integers",
			"bson":         "not_applicable: bson: 1180591620717411303424 at $.big exceeds int64",
			"avro-dynamic": "not_applicable: avro: $.big holds", "goavro": "not_applicable: avro: $.big holds",
			"protobuf-dynamic": "not_applicable: protobuf: $.big holds"},
		"lossy": {"avro-dynamic": `not_applicable: avro: $["*"] is declared any`, "goavro": `not_applicable: avro: $["*"] is declared any`,
			"protobuf-dynamic": `not_applicable: protobuf: $["*"] is declared any`},
	}
	for _, j := range jsons {
		want["special"][j] = "not_applicable: " + j + ": -Inf at $.inf has no JSON form"
		// a whole float in an `any` value comes back as an integer from JSON text
		want["lossy"][j] = "check_failed: $.whole: 2 (int64) != 2 (float64)"
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
		if s.UserNA != "" {
			continue
		}
		_, p := harness.Prepare(s, d, check, []string{"decode"}, "", "")
		if p.Status != "check_failed" || !strings.HasPrefix(p.Detail, `message 1: $.home.tag: "" != "changed"`) {
			t.Errorf("%s: got %s %q", s.Name, p.Status, p.Detail)
		}
	}
}
