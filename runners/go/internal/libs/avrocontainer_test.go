package libs

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"testing"

	"serbench/internal/harness"
)

// The interop datum (testdata/conformance/avro-interop) written with each Avro row's
// container writer and each codec reads back equal; a truncated file is rejected.
func TestAvroContainerRoundTrip(t *testing.T) {
	dir := "../../../../testdata/conformance/avro-interop/"
	schema, err := os.ReadFile(dir + "interop.avsc")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(dir + "datum.json")
	if err != nil {
		t.Fatal(err)
	}
	var datum struct{ Records json.RawMessage }
	if err := json.Unmarshal(raw, &datum); err != nil {
		t.Fatal(err)
	}
	want := exactJSON(t, datum.Records)
	for _, row := range []string{"avro", "avro-dynamic", "goavro"} {
		rw := harness.Container[row]
		for _, codec := range []string{"null", "deflate"} {
			file, err := rw.Write(schema, codec, datum.Records)
			if err != nil {
				t.Fatalf("%s %s: write: %v", row, codec, err)
			}
			got, err := rw.Read(file)
			if err != nil {
				t.Fatalf("%s %s: read: %v", row, codec, err)
			}
			text, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(exactJSON(t, text), want) {
				t.Errorf("%s %s: read back\n%s\nwant\n%s", row, codec, text, datum.Records)
			}
			if _, err := rw.Read(file[:len(file)-20]); err == nil {
				t.Errorf("%s %s: a truncated file was accepted", row, codec)
			}
		}
	}
}

// exactJSON parses JSON keeping each number's text, so 2^53+1 stays itself.
func exactJSON(t *testing.T, text []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// sameJSON compares numbers by value (5 and 5.0 alike, integers exactly), as the
// orchestrator does.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if i, ok := new(big.Int).SetString(string(x), 10); ok {
			if j, ok := new(big.Int).SetString(string(y), 10); ok {
				return i.Cmp(j) == 0
			}
		}
		f, _ := x.Float64()
		g, _ := y.Float64()
		return f == g
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			if f, ok := y[k]; !ok || !sameJSON(e, f) {
				return false
			}
		}
		return true
	}
	return a == b
}
