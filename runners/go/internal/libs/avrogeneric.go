package libs

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"

	"serbench/internal/model"
)

// The generic Avro datum both goavro and hamba/avro's generic API take: records and maps
// as map[string]any, arrays as []any, enums as symbol strings, unions as nil or
// map[string]any{branch name: value}, timestamp-millis as time.Time. This file converts
// native values (by reflection over the .avsc) and user trees (through the types) to and
// from it; the conversion is part of each timed operation, as it is for any program
// holding its own types.

// avroType is a parsed .avsc node, named references resolved.
type avroType struct {
	typ      string // record, enum, array, map, union, or a primitive name
	logical  string
	full     string // full name of a named type
	fields   []avroField
	symbols  []string
	items    *avroType // array items, map values
	branches []*avroType
}

type avroField struct {
	name string
	t    *avroType
}

// branchName is the name a union branch has in the generic datum.
func (t *avroType) branchName() string {
	if t.full != "" {
		return t.full
	}
	if t.logical != "" {
		return t.typ + "." + t.logical
	}
	return t.typ
}

func parseAvro(text string) (*avroType, error) {
	var doc any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	return (&avroParser{named: map[string]*avroType{}}).node(doc, "")
}

type avroParser struct{ named map[string]*avroType }

func (p *avroParser) node(x any, ns string) (*avroType, error) {
	switch v := x.(type) {
	case string:
		if t, ok := p.named[v]; ok {
			return t, nil
		}
		if t, ok := p.named[ns+"."+v]; ok {
			return t, nil
		}
		switch v {
		case "null", "boolean", "int", "long", "float", "double", "bytes", "string":
			return &avroType{typ: v}, nil
		}
		return nil, fmt.Errorf("avsc: unknown type %q", v)
	case []any:
		u := &avroType{typ: "union"}
		for _, b := range v {
			t, err := p.node(b, ns)
			if err != nil {
				return nil, err
			}
			u.branches = append(u.branches, t)
		}
		return u, nil
	case map[string]any:
		typ, _ := v["type"].(string)
		if typ == "" {
			return p.node(v["type"], ns)
		}
		t := &avroType{typ: typ}
		if lt, ok := v["logicalType"].(string); ok {
			t.logical = lt
		}
		switch typ {
		case "record", "enum", "fixed":
			name, _ := v["name"].(string)
			if s, ok := v["namespace"].(string); ok {
				ns = s
			}
			if !strings.Contains(name, ".") && ns != "" {
				name = ns + "." + name
			}
			t.full = name
			p.named[name] = t
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				ns = name[:i]
			}
		}
		switch typ {
		case "record":
			fs, _ := v["fields"].([]any)
			for _, f := range fs {
				fm, _ := f.(map[string]any)
				ft, err := p.node(fm["type"], ns)
				if err != nil {
					return nil, err
				}
				name, _ := fm["name"].(string)
				t.fields = append(t.fields, avroField{name, ft})
			}
		case "enum":
			ss, _ := v["symbols"].([]any)
			for _, s := range ss {
				t.symbols = append(t.symbols, fmt.Sprint(s))
			}
		case "array", "map":
			key := "items"
			if typ == "map" {
				key = "values"
			}
			it, err := p.node(v[key], ns)
			if err != nil {
				return nil, err
			}
			t.items = it
		}
		return t, nil
	}
	return nil, fmt.Errorf("avsc: unexpected %v", x)
}

// standaloneAvsc returns the schema text of a built-in dataset on its own: for the S2 union
// file, the picked record with the records it references inlined.
func standaloneAvsc(t *model.Typed) (string, error) {
	text, pick, err := avsc(t)
	if err != nil || pick == "" {
		return text, err
	}
	var union []any
	if err := json.Unmarshal([]byte(text), &union); err != nil {
		return "", err
	}
	defs := map[string]any{}
	for _, d := range union {
		m := d.(map[string]any)
		defs[m["name"].(string)] = m
	}
	var inline func(x any) any
	inline = func(x any) any {
		switch v := x.(type) {
		case string:
			if d, ok := defs[v]; ok {
				delete(defs, v)
				return inline(d)
			}
		case map[string]any:
			out := map[string]any{}
			for k, e := range v {
				out[k] = e
			}
			if fs, ok := v["fields"].([]any); ok {
				var nf []any
				for _, f := range fs {
					fm := map[string]any{}
					for k, e := range f.(map[string]any) {
						fm[k] = e
					}
					fm["type"] = inline(fm["type"])
					nf = append(nf, fm)
				}
				out["fields"] = nf
			}
			return out
		}
		return x
	}
	root := inline(pick)
	b, err := json.Marshal(root)
	return string(b), err
}

// ---- native values <-> datum (built-in datasets) --------------------------------------

type toDatum func(v reflect.Value) any
type fromDatum func(d any, v reflect.Value) error

var timeType = reflect.TypeOf(time.Time{})

func avroFieldIndex(rt reflect.Type, name string) int {
	for i := 0; i < rt.NumField(); i++ {
		if rt.Field(i).Tag.Get("avro") == name {
			return i
		}
	}
	return -1
}

func nativeToDatum(t *avroType, rt reflect.Type) (toDatum, error) {
	switch t.typ {
	case "record":
		if rt.Kind() == reflect.Slice && len(t.fields) == 1 { // a list wrapped in a record
			inner, err := nativeToDatum(t.fields[0].t, rt)
			if err != nil {
				return nil, err
			}
			name := t.fields[0].name
			return func(v reflect.Value) any { return map[string]any{name: inner(v)} }, nil
		}
		if rt.Kind() != reflect.Struct {
			return nil, fmt.Errorf("avro record %s for Go %s", t.full, rt)
		}
		idx := make([]int, len(t.fields))
		subs := make([]toDatum, len(t.fields))
		for i, f := range t.fields {
			if idx[i] = avroFieldIndex(rt, f.name); idx[i] < 0 {
				return nil, fmt.Errorf("%s has no field %s", rt, f.name)
			}
			var err error
			if subs[i], err = nativeToDatum(f.t, rt.Field(idx[i]).Type); err != nil {
				return nil, err
			}
		}
		return func(v reflect.Value) any {
			m := make(map[string]any, len(idx))
			for i, f := range t.fields {
				m[f.name] = subs[i](v.Field(idx[i]))
			}
			return m
		}, nil
	case "array":
		sub, err := nativeToDatum(t.items, rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(v reflect.Value) any {
			out := make([]any, v.Len())
			for i := range out {
				out[i] = sub(v.Index(i))
			}
			return out
		}, nil
	case "map":
		sub, err := nativeToDatum(t.items, rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(v reflect.Value) any {
			out := make(map[string]any, v.Len())
			it := v.MapRange()
			for it.Next() {
				out[it.Key().String()] = sub(it.Value())
			}
			return out
		}, nil
	case "enum":
		syms := t.symbols
		return func(v reflect.Value) any { return syms[v.Int()] }, nil
	case "int":
		if rt.Kind() >= reflect.Uint && rt.Kind() <= reflect.Uint64 {
			return func(v reflect.Value) any { return int32(v.Uint()) }, nil
		}
		return func(v reflect.Value) any { return int32(v.Int()) }, nil
	case "long":
		if rt == timeType {
			return func(v reflect.Value) any { return v.Interface() }, nil
		}
		return func(v reflect.Value) any { return v.Int() }, nil
	case "float": // the generic APIs take float32 for Avro float, float64 for double
		return func(v reflect.Value) any { return float32(v.Float()) }, nil
	case "double":
		return func(v reflect.Value) any { return v.Float() }, nil
	case "string":
		return func(v reflect.Value) any { return v.String() }, nil
	case "boolean":
		return func(v reflect.Value) any { return v.Bool() }, nil
	}
	return nil, fmt.Errorf("avro %s for Go %s not mapped", t.typ, rt)
}

func datumToNative(t *avroType, rt reflect.Type) (fromDatum, error) {
	bad := func(d any) error { return fmt.Errorf("avro %s: unexpected %T", t.typ, d) }
	switch t.typ {
	case "record":
		if rt.Kind() == reflect.Slice && len(t.fields) == 1 {
			inner, err := datumToNative(t.fields[0].t, rt)
			if err != nil {
				return nil, err
			}
			name := t.fields[0].name
			return func(d any, v reflect.Value) error {
				m, ok := d.(map[string]any)
				if !ok {
					return bad(d)
				}
				return inner(m[name], v)
			}, nil
		}
		idx := make([]int, len(t.fields))
		subs := make([]fromDatum, len(t.fields))
		for i, f := range t.fields {
			idx[i] = avroFieldIndex(rt, f.name)
			var err error
			if subs[i], err = datumToNative(f.t, rt.Field(idx[i]).Type); err != nil {
				return nil, err
			}
		}
		return func(d any, v reflect.Value) error {
			m, ok := d.(map[string]any)
			if !ok {
				return bad(d)
			}
			for i, f := range t.fields {
				if err := subs[i](m[f.name], v.Field(idx[i])); err != nil {
					return err
				}
			}
			return nil
		}, nil
	case "array":
		sub, err := datumToNative(t.items, rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(d any, v reflect.Value) error {
			l, ok := d.([]any)
			if !ok {
				return bad(d)
			}
			s := reflect.MakeSlice(rt, len(l), len(l))
			for i, e := range l {
				if err := sub(e, s.Index(i)); err != nil {
					return err
				}
			}
			v.Set(s)
			return nil
		}, nil
	case "map":
		sub, err := datumToNative(t.items, rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(d any, v reflect.Value) error {
			m, ok := d.(map[string]any)
			if !ok {
				return bad(d)
			}
			out := reflect.MakeMapWithSize(rt, len(m))
			e := reflect.New(rt.Elem()).Elem()
			for k, x := range m {
				e.SetZero()
				if err := sub(x, e); err != nil {
					return err
				}
				out.SetMapIndex(reflect.ValueOf(k), e)
			}
			v.Set(out)
			return nil
		}, nil
	case "enum":
		return func(d any, v reflect.Value) error {
			for i, s := range t.symbols {
				if s == d {
					v.SetInt(int64(i))
					return nil
				}
			}
			return bad(d)
		}, nil
	case "int", "long":
		if rt == timeType {
			return func(d any, v reflect.Value) error {
				tm, ok := d.(time.Time)
				if !ok {
					return bad(d)
				}
				v.Set(reflect.ValueOf(tm.UTC()))
				return nil
			}, nil
		}
		unsigned := rt.Kind() >= reflect.Uint && rt.Kind() <= reflect.Uint64
		return func(d any, v reflect.Value) error {
			b, ok := model.AsBig(d)
			if !ok {
				return bad(d)
			}
			if unsigned {
				v.SetUint(uint64(b.Int64()) & (1<<32 - 1))
			} else {
				v.SetInt(b.Int64())
			}
			return nil
		}, nil
	case "float", "double":
		return func(d any, v reflect.Value) error {
			switch f := d.(type) {
			case float32:
				v.SetFloat(float64(f))
			case float64:
				v.SetFloat(f)
			default:
				return bad(d)
			}
			return nil
		}, nil
	case "string":
		return func(d any, v reflect.Value) error {
			s, ok := d.(string)
			if !ok {
				return bad(d)
			}
			v.SetString(s)
			return nil
		}, nil
	case "boolean":
		return func(d any, v reflect.Value) error {
			b, ok := d.(bool)
			if !ok {
				return bad(d)
			}
			v.SetBool(b)
			return nil
		}, nil
	}
	return nil, fmt.Errorf("avro %s for Go %s not mapped", t.typ, rt)
}

// avroGeneric is a built-in dataset's schema text and its native <-> datum converters.
func avroGeneric(d *model.Dataset) (string, func(msg any) any, func(d any) (any, error), error) {
	text, err := standaloneAvsc(d.Model)
	if err != nil {
		return "", nil, nil, err
	}
	t, err := parseAvro(text)
	if err != nil {
		return "", nil, nil, err
	}
	rt := reflect.TypeOf(d.New()).Elem()
	to, err := nativeToDatum(t, rt)
	if err != nil {
		return "", nil, nil, err
	}
	from, err := datumToNative(t, rt)
	if err != nil {
		return "", nil, nil, err
	}
	return text,
		func(msg any) any { return to(reflect.ValueOf(msg).Elem()) },
		func(d any) (any, error) {
			p := reflect.New(rt)
			err := from(d, p.Elem())
			return p.Interface(), err
		}, nil
}

// ---- user trees <-> datum (user datasets, through the types and the .avsc) -------------

type treeConv func(v any) any

// avroUser reads the user dataset's .avsc and builds the tree <-> datum converters.
func avroUser(d *model.Dataset, format string) (string, treeConv, treeConv, error) {
	s, why := d.User.SchemaFor("avsc", format)
	if why != "" {
		return "", nil, nil, naErr(why)
	}
	raw, err := os.ReadFile(s.Path)
	if err != nil {
		return "", nil, nil, err
	}
	t, err := parseAvro(string(raw))
	if err != nil {
		return "", nil, nil, err
	}
	to, from, err := userAvroConv(d.User.Types.Message, t, "$")
	return string(raw), to, from, err
}

func userAvroConv(u *model.UType, t *avroType, path string) (treeConv, treeConv, error) {
	ident := func(v any) any { return v }
	mismatch := fmt.Errorf("avro: %s: type %s does not match the .avsc's %s", path, u, t.typ)
	switch u.Kind {
	case model.UOptional:
		if t.typ != "union" || len(t.branches) != 2 {
			return nil, nil, mismatch
		}
		b := t.branches[0]
		if b.typ == "null" {
			b = t.branches[1]
		}
		to, from, err := userAvroConv(u.Of, b, path)
		if err != nil {
			return nil, nil, err
		}
		name := b.branchName()
		return func(v any) any {
				if v == nil {
					return nil
				}
				return map[string]any{name: to(v)}
			}, func(d any) any {
				if m, ok := d.(map[string]any); ok && len(m) == 1 {
					for _, x := range m {
						return from(x)
					}
				}
				return from(d)
			}, nil
	case model.UList, model.UMap:
		want := "array"
		if u.Kind == model.UMap {
			want = "map"
		}
		if t.typ != want {
			return nil, nil, mismatch
		}
		to, from, err := userAvroConv(u.Of, t.items, path+"[*]")
		if err != nil {
			return nil, nil, err
		}
		if u.Kind == model.UList {
			return func(v any) any {
					l, _ := v.([]any)
					out := make([]any, len(l))
					for i, x := range l {
						out[i] = to(x)
					}
					return out
				}, func(d any) any {
					l, ok := d.([]any)
					if !ok {
						return d
					}
					out := make([]any, len(l))
					for i, x := range l {
						out[i] = from(x)
					}
					return out
				}, nil
		}
		return func(v any) any {
				m, _ := v.(map[string]any)
				out := make(map[string]any, len(m))
				for k, x := range m {
					out[k] = to(x)
				}
				return out
			}, func(d any) any {
				m, ok := d.(map[string]any)
				if !ok {
					return d
				}
				out := make(map[string]any, len(m))
				for k, x := range m {
					out[k] = from(x)
				}
				return out
			}, nil
	case model.URecord:
		if t.typ != "record" || len(t.fields) != len(u.Fields) {
			return nil, nil, mismatch
		}
		n := len(u.Fields)
		tos, froms := make([]treeConv, n), make([]treeConv, n)
		for i, f := range u.Fields {
			var err error
			if tos[i], froms[i], err = userAvroConv(f.Type, t.fields[i].t, model.KeyPath(path, f.Key)); err != nil {
				return nil, nil, err
			}
		}
		return func(v any) any {
				m, _ := v.(map[string]any)
				out := make(map[string]any, n)
				for i, f := range u.Fields {
					out[t.fields[i].name] = tos[i](m[f.Key])
				}
				return out
			}, func(d any) any {
				m, ok := d.(map[string]any)
				if !ok {
					return d
				}
				out := make(map[string]any, n)
				for i, f := range u.Fields {
					out[f.Key] = froms[i](m[t.fields[i].name])
				}
				return out
			}, nil
	case model.UEnum:
		if t.typ != "enum" {
			return nil, nil, mismatch
		}
		syms := t.symbols
		return func(v any) any { return syms[v.(int32)] }, func(d any) any {
			for i, s := range syms {
				if s == d {
					return int32(i)
				}
			}
			return d
		}, nil
	}
	revive := func(d any) any { return model.Revive(u, d) }
	switch u.Name {
	case "uint32":
		return func(v any) any { return int64(v.(uint32)) }, revive, nil
	case "null":
		return ident, func(any) any { return nil }, nil
	case "any", "bigint", "uint64":
		return nil, nil, naErr(fmt.Sprintf("avro: %s is %s, which the .avsc cannot carry", path, u.Name))
	}
	return ident, revive, nil
}
