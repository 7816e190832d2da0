package harness

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"reflect"
	"sort"
	"time"

	"serbench/internal/model"
)

// Bytes this runner did not write (docs/runner-protocol.md section 11). A library's
// returned error is its documented way to refuse input: "rejected". A panic is not
// recovered here: it kills the process and the orchestrator finds the input by bisection.

// Generic maps a serializer to its library's decode to a generic value (no dataset).
var Generic = map[string]func(src []byte) (any, error){}

// GenericEncode maps a serializer to its library's encode of a generic value.
var GenericEncode = map[string]func(v any) ([]byte, error){}

// Container maps an Avro row to its library's object container file writer and reader
// (section 11, capability avro_container).
var Container = map[string]ContainerIO{}

// ContainerIO writes canonical JSON records as a container file with the given schema
// and codec, and reads a container file's records back in canonical form: the writer's
// schema is in the file, so the reader renders the values by it. Write returns a
// NotApplicable error for records that do not fit the schema.
type ContainerIO struct {
	Write func(schema json.RawMessage, codec string, records json.RawMessage) ([]byte, error)
	Read  func(src []byte) (any, error)
}

// Canonical renders decoded values the orchestrator compares (section 11); libraries add
// their own types (tags, extensions) through CanonicalHooks.
var CanonicalHooks []func(v any, depth int) (any, bool)

const maxDepth = 400

type untrustedInput struct {
	ID   string  `json:"id"`
	B64  *string `json:"b64"`
	Path *string `json:"path"`
}

type untrustedCommand struct {
	Cmd        string           `json:"cmd"`
	Cell       string           `json:"cell"`
	Serializer string           `json:"serializer"`
	Dataset    *DatasetRef      `json:"dataset"`
	Inputs     []untrustedInput `json:"inputs"`
	Message    int              `json:"message"`
	Value      json.RawMessage  `json:"value"`
	Container  json.RawMessage  `json:"container"`
}

type containerSpec struct {
	Schema json.RawMessage `json:"schema"`
	Codec  string          `json:"codec"`
}

func (s *Server) untrusted(line []byte) {
	var c untrustedCommand
	if err := json.Unmarshal(line, &c); err != nil {
		s.fail("bad_request", err.Error(), nil)
		return
	}
	cell := &c.Cell
	ser := s.find(c.Serializer)
	if ser == nil {
		s.fail("unknown_serializer", fmt.Sprintf("no serializer %q", c.Serializer), cell)
		return
	}
	if len(c.Container) > 0 && string(c.Container) != "null" && string(c.Container) != "false" {
		s.container(&c)
		return
	}
	var codec *Codec
	var data *model.Dataset
	if c.Dataset != nil {
		if c.Dataset.Kind == "user" {
			s.fail("unsupported", "untrusted input against user datasets is not supported yet", cell)
			return
		}
		var err error
		if data, err = s.LoadDataset(c.Dataset, c.Dataset.Data); err != nil {
			s.fail("bad_data", err.Error(), cell)
			return
		}
		if codec, err = ser.Codec(data); err != nil {
			code := "exception"
			if IsNA(err) {
				code = "not_applicable"
			}
			s.fail(code, err.Error(), cell)
			return
		}
	}
	if c.Cmd == "untrusted_encode" {
		s.untrustedEncode(&c, codec, data)
		return
	}
	decode := Generic[c.Serializer]
	if codec != nil {
		decode = codec.Decode
	}
	if decode == nil {
		s.fail("unsupported", c.Serializer+" has no generic-value decode: name a dataset", cell)
		return
	}
	s.decodeInputs(&c, decode, func(v any) any { return Canonical(v, 0) })
}

// container answers the object container file variants (section 11, avro_container).
func (s *Server) container(c *untrustedCommand) {
	rw, ok := Container[c.Serializer]
	if !ok {
		s.fail("unsupported", c.Serializer+" does not read or write object container files", &c.Cell)
		return
	}
	if c.Cmd == "untrusted_decode" {
		s.decodeInputs(c, rw.Read, func(v any) any { return v }) // Read renders by the file's schema
		return
	}
	var spec containerSpec
	if err := json.Unmarshal(c.Container, &spec); err != nil || len(spec.Schema) == 0 {
		s.fail("bad_request", fmt.Sprintf("container: want {schema, codec}, got %.100s", c.Container), &c.Cell)
		return
	}
	out, err := rw.Write(spec.Schema, spec.Codec, c.Value)
	if err != nil {
		code := "exception"
		if IsNA(err) {
			code = "not_applicable"
		}
		s.fail(code, err.Error(), &c.Cell)
		return
	}
	s.reply(map[string]any{"event": "untrusted_encoded", "cell": c.Cell, "b64": base64.StdEncoding.EncodeToString(out)})
}

// decodeInputs feeds each input to decode and answers its outcomes.
func (s *Server) decodeInputs(c *untrustedCommand, decode func([]byte) (any, error), canonical func(any) any) {
	cell := &c.Cell
	outcomes := make([]map[string]any, 0, len(c.Inputs))
	for _, in := range c.Inputs {
		var src []byte
		var err error
		if in.Path != nil {
			src, err = os.ReadFile(*in.Path)
		} else if in.B64 != nil {
			src, err = base64.StdEncoding.DecodeString(*in.B64)
		} else {
			err = fmt.Errorf("input %s has neither b64 nor path", in.ID)
		}
		if err != nil {
			s.fail("bad_request", err.Error(), cell)
			return
		}
		start := time.Now()
		v, err := decode(src)
		ns := time.Since(start).Nanoseconds()
		out := map[string]any{"id": in.ID, "ns": ns}
		if err != nil {
			out["outcome"], out["error"] = "rejected", truncate(err.Error(), 300)
		} else {
			out["outcome"], out["value"] = "accepted", canonical(v)
		}
		outcomes = append(outcomes, out)
	}
	s.reply(map[string]any{"event": "untrusted_decoded", "cell": c.Cell, "outcomes": outcomes})
}

func (s *Server) untrustedEncode(c *untrustedCommand, codec *Codec, data *model.Dataset) {
	var out []byte
	var err error
	switch {
	case codec != nil:
		out, err = codec.Encode(nil, data.Message(c.Message))
	case GenericEncode[c.Serializer] != nil:
		var v any
		if v, err = FromCanonical(c.Value); err == nil {
			out, err = GenericEncode[c.Serializer](v)
		}
		if err != nil {
			s.fail("not_applicable", err.Error(), &c.Cell)
			return
		}
	default:
		s.fail("unsupported", c.Serializer+" does not encode generic values in this runner", &c.Cell)
		return
	}
	if err != nil {
		s.fail("exception", err.Error(), &c.Cell)
		return
	}
	s.reply(map[string]any{"event": "untrusted_encoded", "cell": c.Cell, "b64": base64.StdEncoding.EncodeToString(out)})
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func float(f float64) any {
	switch {
	case math.IsNaN(f):
		return map[string]any{"$float": "NaN"}
	case math.IsInf(f, 1):
		return map[string]any{"$float": "Infinity"}
	case math.IsInf(f, -1):
		return map[string]any{"$float": "-Infinity"}
	}
	return f
}

// Canonical is the canonical JSON form of a decoded value (section 11).
func Canonical(v any, depth int) any {
	if depth > maxDepth {
		return map[string]any{"$other": fmt.Sprintf("nested deeper than %d", maxDepth)}
	}
	for _, hook := range CanonicalHooks {
		if out, ok := hook(v, depth); ok {
			return out
		}
	}
	switch x := v.(type) {
	case nil, bool, string, json.Number:
		return x
	case float64:
		return float(x)
	case float32:
		return float(float64(x))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return x
	case []byte:
		return map[string]any{"$bytes": hex.EncodeToString(x)}
	case *big.Int:
		return json.RawMessage(x.String())
	case big.Int:
		return json.RawMessage(x.String())
	case time.Time:
		return map[string]any{"$timestamp": []int64{x.Unix(), int64(x.Nanosecond())}}
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = Canonical(rv.Index(i).Interface(), depth+1)
		}
		return out
	case reflect.Map:
		keys := rv.MapKeys()
		allStrings := true
		for _, k := range keys {
			if _, ok := k.Interface().(string); !ok {
				allStrings = false
			}
		}
		if allStrings {
			out := make(map[string]any, len(keys))
			for _, k := range keys {
				out[k.Interface().(string)] = Canonical(rv.MapIndex(k).Interface(), depth+1)
			}
			return out
		}
		pairs := make([][]any, 0, len(keys))
		for _, k := range keys {
			pairs = append(pairs, []any{Canonical(k.Interface(), depth+1), Canonical(rv.MapIndex(k).Interface(), depth+1)})
		}
		sort.Slice(pairs, func(i, j int) bool { return fmt.Sprint(pairs[i][0]) < fmt.Sprint(pairs[j][0]) })
		return map[string]any{"$map": pairs}
	case reflect.Pointer:
		if rv.IsNil() {
			return nil
		}
	}
	// a typed model's value: its JSON rendering, compared only with the valid input's
	if b, err := json.Marshal(v); err == nil {
		return json.RawMessage(b)
	}
	return map[string]any{"$other": truncate(fmt.Sprintf("%T: %+v", v, v), 200)}
}

// FromCanonical turns a canonical JSON value into the generic value a library encodes.
func FromCanonical(raw json.RawMessage) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return fromCanonical(v)
}

func fromCanonical(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		var u uint64
		if _, err := fmt.Sscan(string(x), &u); err == nil && u > math.MaxInt64 {
			return u, nil
		}
		return x.Float64()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = fromCanonical(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		if len(x) == 1 {
			for k, inner := range x {
				switch k {
				case "$bytes":
					return hex.DecodeString(inner.(string))
				case "$timestamp":
					p := inner.([]any)
					s, _ := p[0].(json.Number).Int64()
					ns, _ := p[1].(json.Number).Int64()
					return time.Unix(s, ns).UTC(), nil
				case "$float", "$map", "$ext", "$tag", "$simple":
					return nil, fmt.Errorf("%s values are not encoded through the generic tree here", k)
				}
			}
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			var err error
			if out[k], err = fromCanonical(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}
