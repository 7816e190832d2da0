package model

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// UKind is the shape of a user-data type.
type UKind int

// The shapes of the types language (datasets/README.md, protocol section 7).
const (
	UPrim UKind = iota
	UList
	UMap
	UOptional
	UEnum
	URecord
)

// UType is one type of a user dataset's types file.
type UType struct {
	Kind    UKind
	Name    string // primitive name, or the enum / record name
	Of      *UType // list, map and optional element
	Fields  []UField
	Symbols []string
}

// UField is one record field, in declaration order (field k is proto field k, Avro field k).
type UField struct {
	Key  string
	Type *UType
}

// UserTypes is a parsed types file.
type UserTypes struct {
	Message *UType
	Named   map[string]*UType
}

var primitives = map[string]bool{
	"null": true, "bool": true, "int32": true, "uint32": true, "int64": true, "uint64": true,
	"bigint": true, "float32": true, "float64": true, "string": true, "bytes": true,
	"timestamp_ms": true, "any": true,
}

func (t *UType) String() string {
	switch t.Kind {
	case UList:
		return "list<" + t.Of.String() + ">"
	case UMap:
		return "map<string," + t.Of.String() + ">"
	case UOptional:
		return "optional<" + t.Of.String() + ">"
	}
	return t.Name
}

// ParseUserTypes reads a types file: {"message": TYPE, "types": {NAME: {"record"|"enum": ...}}}.
func ParseUserTypes(raw []byte) (*UserTypes, error) {
	var doc struct {
		Message string                     `json:"message"`
		Types   map[string]json.RawMessage `json:"types"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	ut := &UserTypes{Named: map[string]*UType{}}
	specs := map[string]struct {
		Record [][2]string `json:"record"`
		Enum   []string    `json:"enum"`
	}{}
	for name, r := range doc.Types {
		s := specs[name]
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, fmt.Errorf("type %s: %w", name, err)
		}
		specs[name] = s
		if s.Enum != nil {
			ut.Named[name] = &UType{Kind: UEnum, Name: name, Symbols: s.Enum}
		} else {
			ut.Named[name] = &UType{Kind: URecord, Name: name}
		}
	}
	for name, s := range specs {
		t := ut.Named[name]
		for _, f := range s.Record {
			ft, err := ut.parse(f[1])
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", name, f[0], err)
			}
			t.Fields = append(t.Fields, UField{f[0], ft})
		}
	}
	m, err := ut.parse(doc.Message)
	if err != nil {
		return nil, fmt.Errorf("message: %w", err)
	}
	ut.Message = m
	return ut, nil
}

func (ut *UserTypes) parse(text string) (*UType, error) {
	t := strings.ReplaceAll(text, " ", "")
	for _, p := range []struct {
		prefix string
		kind   UKind
	}{{"list<", UList}, {"map<string,", UMap}, {"optional<", UOptional}} {
		if strings.HasPrefix(t, p.prefix) && strings.HasSuffix(t, ">") {
			of, err := ut.parse(t[len(p.prefix) : len(t)-1])
			if err != nil {
				return nil, err
			}
			return &UType{Kind: p.kind, Of: of}, nil
		}
	}
	if primitives[t] {
		return &UType{Kind: UPrim, Name: t}, nil
	}
	if n, ok := ut.Named[t]; ok {
		return n, nil
	}
	return nil, fmt.Errorf("unknown type %q", text)
}

// FindType returns the path of the first position (from t, at path) whose type matches,
// or "": lists and maps add "[*]".
func FindType(t *UType, path string, match func(*UType) bool) string {
	return findType(t, path, map[*UType]bool{}, match)
}

func findType(t *UType, path string, seen map[*UType]bool, match func(*UType) bool) string {
	if match(t) {
		return path
	}
	switch t.Kind {
	case UList, UMap:
		return findType(t.Of, path+"[*]", seen, match)
	case UOptional:
		return findType(t.Of, path, seen, match)
	case URecord:
		if seen[t] {
			return ""
		}
		seen[t] = true
		for _, f := range t.Fields {
			if p := findType(f.Type, KeyPath(path, f.Key), seen, match); p != "" {
				return p
			}
		}
	}
	return ""
}

// ---- paths ----------------------------------------------------------------------------

// KeyPath appends a map key or record field to a path: `.name` or `["a b"]`.
func KeyPath(path, k string) string {
	ident := k != ""
	for i, r := range k {
		if r > unicode.MaxASCII || !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			ident = false
			break
		}
	}
	if ident {
		return path + "." + k
	}
	return path + "[" + strconv.Quote(k) + "]"
}

// IndexPath appends a list index to a path.
func IndexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// ---- canonical value -> tree ----------------------------------------------------------

var specialFloats = map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}

// Int normalises an integer: int64 when it fits, else uint64, else *big.Int.
func Int(b *big.Int) any {
	if b.IsInt64() {
		return b.Int64()
	}
	if b.IsUint64() {
		return b.Uint64()
	}
	return b
}

func numberToAny(n json.Number) any {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if b, ok := new(big.Int).SetString(s, 10); ok {
			return Int(b)
		}
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// Build converts a canonical JSON value (decoded with UseNumber) to the tree of type t.
func Build(t *UType, v any, path string) (any, error) {
	bad := func(what string) error { return fmt.Errorf("%s: %v is not %s", path, v, what) }
	switch t.Kind {
	case UOptional:
		if v == nil {
			return nil, nil
		}
		return Build(t.Of, v, path)
	case UList:
		l, ok := v.([]any)
		if !ok {
			return nil, bad(t.String())
		}
		out := make([]any, len(l))
		for i, x := range l {
			var err error
			if out[i], err = Build(t.Of, x, IndexPath(path, i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case UMap:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, bad(t.String())
		}
		out := make(map[string]any, len(m))
		for k, x := range m {
			var err error
			if out[k], err = Build(t.Of, x, KeyPath(path, k)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case URecord:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, bad("record " + t.Name)
		}
		out := make(map[string]any, len(t.Fields))
		for _, f := range t.Fields {
			var err error
			if out[f.Key], err = Build(f.Type, m[f.Key], KeyPath(path, f.Key)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case UEnum:
		n, ok := v.(json.Number)
		if !ok {
			return nil, bad("an enum ordinal")
		}
		i, err := strconv.ParseInt(string(n), 10, 32)
		if err != nil || i < 0 || int(i) >= len(t.Symbols) {
			return nil, bad("an ordinal of enum " + t.Name)
		}
		return int32(i), nil
	}
	switch t.Name {
	case "null":
		if v != nil {
			return nil, bad("null")
		}
		return nil, nil
	case "any":
		return buildAny(v), nil
	case "bool":
		if _, ok := v.(bool); !ok {
			return nil, bad("bool")
		}
		return v, nil
	case "string":
		if _, ok := v.(string); !ok {
			return nil, bad("string")
		}
		return v, nil
	case "bytes":
		s, ok := v.(string)
		if !ok {
			return nil, bad("base64 text")
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, bad("base64 text")
		}
		return b, nil
	case "float32", "float64":
		var f float64
		switch x := v.(type) {
		case string:
			sf, ok := specialFloats[x]
			if !ok {
				return nil, bad(t.Name)
			}
			f = sf
		case json.Number:
			var err error
			if f, err = strconv.ParseFloat(string(x), 64); err != nil {
				return nil, bad(t.Name)
			}
		default:
			return nil, bad(t.Name)
		}
		if t.Name == "float32" {
			return float32(f), nil
		}
		return f, nil
	}
	n, ok := v.(json.Number)
	if !ok {
		return nil, bad(t.Name)
	}
	b, ok := new(big.Int).SetString(string(n), 10)
	if !ok {
		return nil, bad(t.Name)
	}
	if x, ok := fitInt(t.Name, b); ok {
		return x, nil
	}
	return nil, bad(t.Name)
}

// fitInt converts b to the Go type of an integer type name.
func fitInt(name string, b *big.Int) (any, bool) {
	switch name {
	case "int32":
		return int32(b.Int64()), b.IsInt64() && b.Int64() >= math.MinInt32 && b.Int64() <= math.MaxInt32
	case "uint32":
		return uint32(b.Uint64()), b.IsUint64() && b.Uint64() <= math.MaxUint32
	case "int64", "timestamp_ms":
		if name == "timestamp_ms" {
			return Millis(b.Int64()), b.IsInt64()
		}
		return b.Int64(), b.IsInt64()
	case "uint64":
		return b.Uint64(), b.IsUint64()
	case "bigint":
		return Int(b), true
	}
	return nil, false
}

func buildAny(v any) any {
	switch x := v.(type) {
	case json.Number:
		return numberToAny(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = buildAny(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = buildAny(e)
		}
		return out
	}
	return v
}

// ---- a decoded value -> tree (what a user does with the types after decoding) --------

// AsBig reads any integer representation (Go integers, json.Number, *big.Int).
func AsBig(v any) (*big.Int, bool) {
	switch x := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return nil, false
		}
		return new(big.Int).SetString(string(x), 10)
	case *big.Int:
		return x, x != nil
	case big.Int:
		return &x, true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return big.NewInt(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return new(big.Int).SetUint64(rv.Uint()), true
	}
	return nil, false
}

// Revive converts a generic value a library decoded (json.Number, other integer widths,
// base64 text, RFC 3339 text, library wrapper types) back to the tree of type t. A value
// that cannot be converted is returned as it is, so the check reports it.
func Revive(t *UType, v any) any {
	if v == nil {
		return nil
	}
	switch t.Kind {
	case UOptional:
		return Revive(t.Of, v)
	case UList:
		l, ok := asList(v)
		if !ok {
			return v
		}
		out := make([]any, len(l))
		for i, x := range l {
			out[i] = Revive(t.Of, x)
		}
		return out
	case UMap, URecord:
		m, ok := AsMap(v)
		if !ok {
			return v
		}
		out := make(map[string]any, len(m))
		if t.Kind == UMap {
			for k, x := range m {
				out[k] = Revive(t.Of, x)
			}
			return out
		}
		for k, x := range m {
			out[k] = x
		}
		for _, f := range t.Fields {
			if x, ok := m[f.Key]; ok {
				out[f.Key] = Revive(f.Type, x)
			}
		}
		return out
	case UEnum:
		if b, ok := AsBig(v); ok && b.IsInt64() {
			return int32(b.Int64())
		}
		return v
	}
	switch t.Name {
	case "any":
		return ReviveAny(v)
	case "bytes":
		switch x := v.(type) {
		case string:
			if b, err := base64.StdEncoding.DecodeString(x); err == nil {
				return b
			}
		case []byte:
			return x
		}
		return byteser(v)
	case "timestamp_ms":
		switch x := v.(type) {
		case time.Time:
			return x.UTC()
		case string:
			if tm, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return tm.UTC()
			}
		}
		if tm, ok := v.(interface{ Time() time.Time }); ok {
			return tm.Time().UTC()
		}
		return v
	case "float64", "float32":
		var f float64
		switch x := v.(type) {
		case json.Number:
			bits := 64
			if t.Name == "float32" {
				bits = 32
			}
			g, err := strconv.ParseFloat(string(x), bits)
			if err != nil {
				return v
			}
			f = g
		case float64:
			f = x
		case float32:
			if t.Name == "float32" {
				return x
			}
			return v // a double narrowed to float32 must fail the check
		default:
			if b, ok := AsBig(v); ok {
				f, _ = new(big.Float).SetInt(b).Float64()
			} else {
				return v
			}
		}
		if t.Name == "float32" {
			if float64(float32(f)) != f && !math.IsNaN(f) {
				return f // not a float32 value: the check reports it
			}
			return float32(f)
		}
		return f
	case "int32", "uint32", "int64", "uint64", "bigint":
		if b, ok := AsBig(v); ok {
			if x, ok := fitInt(t.Name, b); ok {
				return x
			}
		}
		return v
	}
	return v
}

// byteser unwraps library binary types that carry a Data []byte field.
func byteser(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Struct {
		if f := rv.FieldByName("Data"); f.IsValid() && f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Uint8 {
			return f.Bytes()
		}
	}
	return v
}

func asList(v any) ([]any, bool) {
	if l, ok := v.([]any); ok {
		return l, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	if rv.Type().Elem().Kind() == reflect.Uint8 {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// AsMap reads string-keyed maps of any value type and ordered documents (slices of
// {Key, Value} structs, as BSON's D).
func AsMap(v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, false
		}
		out := make(map[string]any, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			out[it.Key().String()] = it.Value().Interface()
		}
		return out, true
	case reflect.Slice:
		et := rv.Type().Elem()
		if et.Kind() != reflect.Struct || et.NumField() != 2 || et.Field(0).Name != "Key" || et.Field(0).Type.Kind() != reflect.String {
			return nil, false
		}
		out := make(map[string]any, rv.Len())
		for i := 0; i < rv.Len(); i++ {
			out[rv.Index(i).Field(0).String()] = rv.Index(i).Field(1).Interface()
		}
		return out, true
	}
	return nil, false
}

// ReviveAny converts a decoded `any` value back to the generic tree (exact integers).
func ReviveAny(v any) any {
	switch x := v.(type) {
	case nil, bool, string, float64:
		return v
	case json.Number:
		return numberToAny(x)
	}
	if b, ok := AsBig(v); ok {
		return Int(b)
	}
	if m, ok := AsMap(v); ok {
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = ReviveAny(e)
		}
		return out
	}
	if l, ok := asList(v); ok {
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = ReviveAny(e)
		}
		return out
	}
	return v
}

// ---- the check ----------------------------------------------------------------------

func showTree(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 40 {
			return strconv.Quote(x[:40]) + fmt.Sprintf("...(%d bytes)", len(x))
		}
		return strconv.Quote(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case []byte:
		if len(x) > 24 {
			return fmt.Sprintf("%x...(%d bytes)", x[:24], len(x))
		}
		return fmt.Sprintf("0x%x", x)
	case map[string]any:
		return fmt.Sprintf("object(%d keys)", len(x))
	case []any:
		return fmt.Sprintf("list(%d)", len(x))
	}
	s := fmt.Sprint(v)
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return s
}

func typeName(v any) string {
	if v == nil {
		return "null"
	}
	return reflect.TypeOf(v).String()
}

// TreeDiff compares a decoded tree (got) with the original (want) strictly: an integer is
// not a float, float32 is not float64, NaN equals NaN, -0.0 differs from 0.0, maps
// compare as maps. It returns the first difference as "PATH: got != want", or "".
func TreeDiff(path string, got, want any) string {
	tg, tw := reflect.TypeOf(got), reflect.TypeOf(want)
	_, gi := AsBig(got)
	_, wi := AsBig(want)
	if tg != tw && !(gi && wi) {
		return fmt.Sprintf("%s: %s (%s) != %s (%s)", path, showTree(got), typeName(got), showTree(want), typeName(want))
	}
	switch w := want.(type) {
	case nil:
		return ""
	case map[string]any:
		g := got.(map[string]any)
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return KeyPath(path, k) + ": missing"
			}
			if d := TreeDiff(KeyPath(path, k), gv, w[k]); d != "" {
				return d
			}
		}
		if len(g) != len(w) {
			for k := range g {
				if _, ok := w[k]; !ok {
					return KeyPath(path, k) + ": unexpected key"
				}
			}
		}
		return ""
	case []any:
		g := got.([]any)
		for i := 0; i < min(len(g), len(w)); i++ {
			if d := TreeDiff(IndexPath(path, i), g[i], w[i]); d != "" {
				return d
			}
		}
		if len(g) != len(w) {
			return fmt.Sprintf("%s: length %d != %d", path, len(g), len(w))
		}
		return ""
	case []byte:
		if !bytes.Equal(got.([]byte), w) {
			return fmt.Sprintf("%s: %s != %s", path, showTree(got), showTree(want))
		}
		return ""
	case time.Time:
		if !got.(time.Time).Equal(w) {
			return fmt.Sprintf("%s: %s != %s", path, showTree(got), showTree(want))
		}
		return ""
	case float64:
		if !sameFloat(got.(float64), w) {
			return fmt.Sprintf("%s: %v != %v", path, got, want)
		}
		return ""
	case float32:
		if !sameFloat(float64(got.(float32)), float64(w)) {
			return fmt.Sprintf("%s: %v != %v", path, got, want)
		}
		return ""
	}
	if gi && wi {
		a, _ := AsBig(got)
		b, _ := AsBig(want)
		if a.Cmp(b) != 0 {
			return fmt.Sprintf("%s: %s != %s", path, a, b)
		}
		return ""
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%s: %s != %s", path, showTree(got), showTree(want))
	}
	return ""
}

func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

// Find walks a tree depth-first and returns the first value (or map key) test (key)
// objects to: its path, the value's text and the reason.
func Find(tree any, path string, test func(v any) (string, string), key func(k string) string) (string, string, string, bool) {
	if what, why := test(tree); why != "" {
		return path, what, why, true
	}
	switch x := tree.(type) {
	case []any:
		for i, e := range x {
			if p, w, y, ok := Find(e, IndexPath(path, i), test, key); ok {
				return p, w, y, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if key != nil {
				if why := key(k); why != "" {
					return KeyPath(path, k), strconv.Quote(k), why, true
				}
			}
			if p, w, y, ok := Find(x[k], KeyPath(path, k), test, key); ok {
				return p, w, y, true
			}
		}
	}
	return "", "", "", false
}
