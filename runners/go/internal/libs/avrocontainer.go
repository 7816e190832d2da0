package libs

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"

	"serbench/internal/harness"
)

// Avro object container files (docs/runner-protocol.md section 11, avro_container):
// canonical JSON records become each library's generic datum by the schema, are written
// with the library's own container writer, and records read back with its container
// reader are rendered in canonical JSON by the writer's schema found in the file. Both
// libraries take the generic datum of avrogeneric.go; they differ only in how a fixed
// value is held.
func init() {
	hamba := harness.ContainerIO{Write: hambaWriteContainer, Read: hambaReadContainer}
	harness.Container["avro"] = hamba
	harness.Container["avro-dynamic"] = hamba
	harness.Container["goavro"] = harness.ContainerIO{Write: goavroWriteContainer, Read: goavroReadContainer}
}

// avroSchemaKey is the container header's metadata entry holding the writer's schema.
const avroSchemaKey = "avro.schema"

// datumsFromCanonical converts a canonical JSON list of records to generic datums.
func datumsFromCanonical(schema, records json.RawMessage, fixed func([]byte) any) ([]any, error) {
	t, err := parseAvro(string(schema))
	if err != nil {
		return nil, harness.NA("container schema: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(records))
	dec.UseNumber()
	var list []any
	if err := dec.Decode(&list); err != nil {
		return nil, harness.NA("container value: want a list of records: %v", err)
	}
	out := make([]any, len(list))
	for i, r := range list {
		if out[i], err = fromCanonicalAvro(t, r, fixed, fmt.Sprintf("$[%d]", i)); err != nil {
			return nil, harness.NA("%v", err)
		}
	}
	return out, nil
}

// fromCanonicalAvro converts one canonical JSON value to the generic datum of type t.
func fromCanonicalAvro(t *avroType, v any, fixed func([]byte) any, path string) (any, error) {
	bad := func() error { return fmt.Errorf("%s: %.60v is not an Avro %s", path, v, t.typ) }
	switch t.typ {
	case "null":
		if v != nil {
			return nil, bad()
		}
		return nil, nil
	case "boolean":
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case "int", "long":
		if n, ok := v.(json.Number); ok {
			bits := 64
			if t.typ == "int" {
				bits = 32
			}
			i, err := strconv.ParseInt(string(n), 10, bits)
			if err != nil {
				return nil, bad()
			}
			if bits == 32 {
				return int32(i), nil
			}
			return i, nil
		}
	case "float", "double":
		f, ok := canonicalFloat(v)
		if !ok {
			return nil, bad()
		}
		if t.typ == "float" {
			return float32(f), nil
		}
		return f, nil
	case "string", "enum":
		if s, ok := v.(string); ok {
			if t.typ == "enum" && !contains(t.symbols, s) {
				return nil, fmt.Errorf("%s: %q is not a symbol of %s", path, s, t.full)
			}
			return s, nil
		}
	case "bytes", "fixed":
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			if h, ok := m["$bytes"].(string); ok {
				b, err := hex.DecodeString(h)
				if err != nil {
					return nil, fmt.Errorf("%s: $bytes: %v", path, err)
				}
				if t.typ == "fixed" {
					return fixed(b), nil
				}
				return b, nil
			}
		}
	case "array":
		if l, ok := v.([]any); ok {
			out := make([]any, len(l))
			for i, e := range l {
				var err error
				if out[i], err = fromCanonicalAvro(t.items, e, fixed, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
	case "map":
		if m, ok := v.(map[string]any); ok {
			out := make(map[string]any, len(m))
			for k, e := range m {
				var err error
				if out[k], err = fromCanonicalAvro(t.items, e, fixed, path+"."+k); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
	case "record":
		if m, ok := v.(map[string]any); ok {
			out := make(map[string]any, len(t.fields))
			for _, f := range t.fields {
				e, ok := m[f.name]
				if !ok {
					return nil, fmt.Errorf("%s: no field %q", path, f.name)
				}
				var err error
				if out[f.name], err = fromCanonicalAvro(f.t, e, fixed, path+"."+f.name); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
	case "union":
		// the first branch that carries the value; both libraries take a non-null branch
		// as {branch name: value}
		for _, b := range t.branches {
			d, err := fromCanonicalAvro(b, v, fixed, path)
			if err != nil {
				continue
			}
			if b.typ == "null" {
				return nil, nil
			}
			return map[string]any{b.branchName(): d}, nil
		}
		return nil, fmt.Errorf("%s: %.60v fits no branch of the union", path, v)
	default:
		return nil, fmt.Errorf("%s: Avro %s values are not written here", path, t.typ)
	}
	return nil, bad()
}

// canonicalFloat reads a JSON number or {"$float": "NaN" | "Infinity" | "-Infinity"}.
func canonicalFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case map[string]any:
		if s, ok := x["$float"].(string); ok && len(x) == 1 {
			switch s {
			case "NaN":
				return math.NaN(), true
			case "Infinity":
				return math.Inf(1), true
			case "-Infinity":
				return math.Inf(-1), true
			}
		}
	}
	return 0, false
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// canonicalRecords renders records a container reader returned by the writer's schema.
// The library has accepted the file at this point, so a schema or datum this code cannot
// render is not a rejection: it shows as an $other value, which no expected value equals.
func canonicalRecords(schema []byte, records []any) any {
	t, err := parseAvro(string(schema))
	if err != nil {
		return map[string]any{"$other": "writer schema: " + err.Error()}
	}
	out := make([]any, len(records))
	for i, r := range records {
		if out[i], err = canonicalAvro(t, r, 0); err != nil {
			return map[string]any{"$other": fmt.Sprintf("$[%d]%v", i, err)}
		}
	}
	return out
}

var errTooDeep = errors.New(": nested too deep")

// canonicalAvro renders one generic datum of type t (either library's) in canonical JSON.
func canonicalAvro(t *avroType, v any, depth int) (any, error) {
	if depth > 400 {
		return nil, errTooDeep
	}
	unexpected := func() error { return fmt.Errorf(": %T for Avro %s", v, t.typ) }
	switch t.typ {
	case "null":
		return nil, nil // hamba/avro holds it as a typed nil pointer
	case "boolean", "string", "enum":
		return v, nil
	case "int", "long":
		return canonicalInteger(t.logical, v)
	case "float", "double":
		return harness.Canonical(v, 0), nil
	case "bytes", "fixed":
		rv := reflect.ValueOf(v)
		if k := rv.Kind(); (k != reflect.Slice && k != reflect.Array) || rv.Type().Elem().Kind() != reflect.Uint8 {
			return nil, unexpected()
		}
		b := make([]byte, rv.Len())
		reflect.Copy(reflect.ValueOf(b), rv)
		return map[string]any{"$bytes": hex.EncodeToString(b)}, nil
	case "array":
		l, ok := v.([]any)
		if !ok {
			return nil, unexpected()
		}
		out := make([]any, len(l))
		for i, e := range l {
			var err error
			if out[i], err = canonicalAvro(t.items, e, depth+1); err != nil {
				return nil, fmt.Errorf("[%d]%w", i, err)
			}
		}
		return out, nil
	case "map", "record":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, unexpected()
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			et := t.items
			if t.typ == "record" {
				if et = fieldType(t, k); et == nil {
					return nil, fmt.Errorf(".%s: not a field of %s", k, t.full)
				}
			}
			var err error
			if out[k], err = canonicalAvro(et, e, depth+1); err != nil {
				return nil, fmt.Errorf(".%s%w", k, err)
			}
		}
		return out, nil
	case "union":
		m, ok := v.(map[string]any)
		if v == nil || (ok && len(m) == 0) {
			return nil, nil
		}
		for name, e := range m {
			for _, b := range t.branches {
				if b.branchName() == name {
					return canonicalAvro(b, e, depth+1)
				}
			}
		}
		return nil, unexpected()
	}
	return nil, unexpected()
}

func fieldType(t *avroType, name string) *avroType {
	for _, f := range t.fields {
		if f.name == name {
			return f.t
		}
	}
	return nil
}

// canonicalInteger renders an int or long, or the time value a logical type on the type
// made of it, as the integer on the wire.
func canonicalInteger(logical string, v any) (any, error) {
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int64:
		return x, nil
	case time.Duration:
		if logical == "time-millis" {
			return x.Milliseconds(), nil
		}
		return x.Microseconds(), nil
	case time.Time:
		switch logical {
		case "date":
			return int64(math.Floor(float64(x.Unix()) / 86400)), nil
		case "timestamp-millis", "local-timestamp-millis":
			return x.UnixMilli(), nil
		}
		return x.UnixMicro(), nil
	}
	return nil, fmt.Errorf(": %T for an Avro %s", v, "integer")
}
