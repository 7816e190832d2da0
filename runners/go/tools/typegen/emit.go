package main

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"sort"
	"strconv"
	"strings"

	"serbench/internal/model"
)

// message is one message type of a dataset: the registry name and its parsed types.
type message struct {
	dataset string
	types   *model.UserTypes
	text    string // the types file with "message" set to this message's type
}

// pkg is one generated package: the messages of one types file.
type pkg struct {
	name     string
	path     string // import path
	user     bool
	family   string // a built-in's folder under datasets/
	sha      string
	messages []message
	proto    *protoSchema // a user dataset's .proto, or nil
	fbs      *fbSchema    // the dataset's .fbs, or nil
	avro     avroHints    // what the types file says of its .avsc
	stamp    string       // what else the package depends on (the proto descriptors, the .fbs)
}

// emitter writes a package's Go source.
type emitter struct {
	p      *pkg
	named  map[string]*model.UType // record and enum types by name
	names  map[string]string       // type name -> Go name
	taken  map[string]bool
	funcs  map[string]int // type text -> index of its fromN/toN pair
	decls  bytes.Buffer
	fns    bytes.Buffer
	uses   map[string]bool // imports the types need
	tagNA  string
	tuples []string
	roots  map[string]string // dataset -> named type of a message that is not a record
	bare   []string          // records of one field, which positional layouts write bare
	values map[string]string // bare record -> the named type msgp writes its field with
	hw     hwState           // the handwritten layout's code (hw.go)
	avro   []int             // the messages with an Avro mirror (avro.go)
}

func newEmitter(p *pkg) *emitter {
	e := &emitter{p: p, named: map[string]*model.UType{}, names: map[string]string{},
		taken: map[string]bool{}, funcs: map[string]int{}, uses: map[string]bool{}, roots: map[string]string{},
		values: map[string]string{}}
	for _, m := range p.messages {
		for n, t := range m.types.Named {
			e.named[n] = t
		}
	}
	for _, n := range sortedKeys(e.named) {
		e.names[n] = unique(exported(n), e.taken)
		if t := e.named[n]; t.Kind == model.URecord && len(t.Fields) == 1 {
			e.bare = append(e.bare, n)
		}
	}
	return e
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// nilable types are their own null: no pointer for optional.
func nilable(t *model.UType) bool {
	return t.Kind == model.UPrim && (t.Name == "any" || t.Name == "null" || t.Name == "bigint")
}

var primTypes = map[string]string{
	"null": "any", "any": "any", "bool": "bool", "int32": "int32", "uint32": "uint32",
	"int64": "int64", "uint64": "uint64", "bigint": "*big.Int", "float32": "float32",
	"float64": "float64", "string": "string", "bytes": "[]byte", "timestamp_ms": "time.Time",
}

func (e *emitter) goType(t *model.UType) string {
	switch t.Kind {
	case model.UList:
		return "[]" + e.goType(t.Of)
	case model.UMap:
		return "map[string]" + e.goType(t.Of)
	case model.UOptional:
		if nilable(t.Of) {
			return e.goType(t.Of)
		}
		return "*" + e.goType(t.Of)
	case model.UEnum, model.URecord:
		return e.names[t.Name]
	}
	switch t.Name {
	case "bigint":
		e.uses["math/big"] = true
	case "timestamp_ms":
		e.uses["time"] = true
	}
	return primTypes[t.Name]
}

// typeDecls writes the enums and records, with the struct tags the libraries read.
func (e *emitter) typeDecls() {
	for _, n := range sortedKeys(e.named) {
		t, gn := e.named[n], e.names[n]
		if t.Kind == model.UEnum {
			fmt.Fprintf(&e.decls, "// %s is the enum %s, stored as its ordinal.\ntype %s int32\n\n", gn, strconv.Quote(n), gn)
			continue
		}
		if len(t.Fields) != 1 {
			e.tuples = append(e.tuples, gn)
		}
		fmt.Fprintf(&e.decls, "// %s is the record %s.\ntype %s struct {\n", gn, strconv.Quote(n), gn)
		taken := map[string]bool{}
		for _, f := range t.Fields {
			tag := fmt.Sprintf("avro:%q", avroName(f.Key))
			if taggable(f.Key) {
				k := strconv.Quote(f.Key)
				tag = fmt.Sprintf("json:%s msgpack:%s cbor:%s bson:%s %s", k, k, k, k, tag)
			} else if e.tagNA == "" {
				e.tagNA = fmt.Sprintf("field %s of record %s cannot be a struct tag name (empty, \"-\", or characters outside encoding/json's tag rule), so a library mapping fields by tag cannot name it",
					strconv.Quote(f.Key), n)
			}
			fmt.Fprintf(&e.decls, "\t%s %s `%s`\n", unique(exported(f.Key), taken), e.goType(f.Type), tag)
		}
		e.decls.WriteString("}\n\n")
	}
}

// fn returns the index of the fromN/toN pair of t, writing it on first use.
func (e *emitter) fn(t *model.UType) int {
	key := t.String()
	if i, ok := e.funcs[key]; ok {
		return i
	}
	i := len(e.funcs)
	e.funcs[key] = i
	gt := e.goType(t)
	var from, to string
	switch t.Kind {
	case model.UOptional:
		j := e.fn(t.Of)
		if nilable(t.Of) {
			from, to = fmt.Sprintf("return from%d(v)", j), fmt.Sprintf("return to%d(x)", j)
		} else {
			from = fmt.Sprintf("if v == nil {\nreturn nil\n}\nx := from%d(v)\nreturn &x", j)
			to = fmt.Sprintf("if x == nil {\nreturn nil\n}\nreturn to%d(*x)", j)
		}
	case model.UList:
		j := e.fn(t.Of)
		from = fmt.Sprintf("l := v.([]any)\nout := make(%s, len(l))\nfor i, x := range l {\nout[i] = from%d(x)\n}\nreturn out", gt, j)
		to = fmt.Sprintf("out := make([]any, len(x))\nfor i, y := range x {\nout[i] = to%d(y)\n}\nreturn out", j)
	case model.UMap:
		j := e.fn(t.Of)
		from = fmt.Sprintf("m := v.(map[string]any)\nout := make(%s, len(m))\nfor k, x := range m {\nout[k] = from%d(x)\n}\nreturn out", gt, j)
		to = fmt.Sprintf("out := make(map[string]any, len(x))\nfor k, y := range x {\nout[k] = to%d(y)\n}\nreturn out", j)
	case model.UEnum:
		from, to = fmt.Sprintf("return %s(v.(int32))", gt), "return int32(x)"
	case model.URecord:
		var fb, tb bytes.Buffer
		fmt.Fprintf(&fb, "m := v.(map[string]any)\nreturn %s{\n", gt)
		tb.WriteString("return map[string]any{\n")
		taken := map[string]bool{}
		for _, f := range t.Fields {
			j, name, k := e.fn(f.Type), unique(exported(f.Key), taken), strconv.Quote(f.Key)
			fmt.Fprintf(&fb, "%s: from%d(m[%s]),\n", name, j, k)
			fmt.Fprintf(&tb, "%s: to%d(x.%s),\n", k, j, name)
		}
		fb.WriteString("}")
		tb.WriteString("}")
		from, to = fb.String(), tb.String()
	default:
		from, to = e.prim(t.Name, gt)
	}
	fmt.Fprintf(&e.fns, "func from%d(v any) %s {\n%s\n}\n\nfunc to%d(x %s) any {\n%s\n}\n\n", i, gt, from, i, gt, to)
	return i
}

// prim converts a scalar: the tree holds the Go type already (model.Build); decoded `any`
// values and big integers are normalised as the dynamic check expects.
func (e *emitter) prim(name, gt string) (from, to string) {
	switch name {
	case "null":
		return "return v", "return x"
	case "any":
		return "return v", "return model.ReviveAny(x)"
	case "bigint":
		return "b, _ := model.AsBig(v)\nreturn b", "if x == nil {\nreturn nil\n}\nreturn model.Int(x)"
	}
	return fmt.Sprintf("return v.(%s)", gt), "return x"
}

// modelFile is model.go: the types and msgp's directives (msgp reads this file).
func (e *emitter) modelFile() []byte {
	e.typeDecls()
	roots := e.rootDecls()
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by serbench/tools/typegen. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "// Package %s is the typed model of %s.\npackage %s\n\n", e.p.name, e.describe(), e.p.name)
	writeImports(&b, e.uses)
	b.WriteString("// msgp (tinylib/msgp) writes msgp_gen.go from this file: records as arrays in field\n// order, date-times as the MessagePack timestamp extension.\n")
	if len(e.tuples) > 0 {
		fmt.Fprintf(&b, "//msgp:tuple %s\n", strings.Join(e.tuples, " "))
	}
	b.WriteString("//msgp:newtime\n//msgp:timezone utc\n")
	if len(e.bare) > 0 {
		var names []string
		for _, n := range e.bare {
			names = append(names, e.names[n])
		}
		fmt.Fprintf(&b, "//msgp:ignore %s\n", strings.Join(names, " "))
	}
	b.WriteString("\n")
	b.Write(e.decls.Bytes())
	b.WriteString(roots)
	b.WriteString(e.valueDecls())
	return gofmt(b.Bytes())
}

func (e *emitter) describe() string {
	var names []string
	for _, m := range e.p.messages {
		names = append(names, m.dataset)
	}
	return "the dataset(s) " + strings.Join(names, " ")
}

// rootName is the named type msgp hangs its methods on for a message that is not a record.
func (e *emitter) rootName(m message) string {
	if len(e.p.messages) == 1 {
		return "Root"
	}
	return "Root" + exported(m.dataset)
}

func (e *emitter) rootDecls() string {
	var b bytes.Buffer
	for _, m := range e.p.messages {
		if msgpRootOK(m.types.Message) && m.types.Message.Kind != model.URecord {
			n := unique(e.rootName(m), e.taken)
			e.roots[m.dataset] = n
			fmt.Fprintf(&b, "// %s is the message of %s as a named type (for msgp's methods).\ntype %s %s\n\n",
				n, m.dataset, n, e.goType(m.types.Message))
		}
	}
	return b.String()
}

// msgpRootOK tells whether msgp can generate methods for a message type.
func msgpRootOK(t *model.UType) bool { return t.Kind != model.UOptional && !nilable(t) }

// treeFile is tree.go: the conversions and the registration of each message's model.
func (e *emitter) treeFile(msgpNA string, withProto bool, protoNA, fbNA, avroNA string) []byte {
	var reg bytes.Buffer
	reg.WriteString("func init() {\n")
	for k, m := range e.p.messages {
		root := m.types.Message
		gt, i := e.goType(root), e.fn(root)
		view := fmt.Sprintf("m.(*%s)", gt)
		if root.Kind != model.URecord {
			view = fmt.Sprintf("(*%s)(m.(*%s))", e.roots[m.dataset], gt)
		}
		na := msgpNA
		if na == "" && !msgpRootOK(root) {
			na = "msgp: the message is " + root.String() + ", a type msgp generates no methods for"
		}
		opt := fmt.Sprintf("Msgp: func(m any) model.Msgp { return %s },\n", view)
		if na != "" {
			opt = "MsgpNA: " + strconv.Quote(na) + ",\n"
		}
		if e.tagNA != "" {
			opt += "TagNA: " + strconv.Quote(e.tagNA) + ",\n"
		}
		if withProto {
			opt += fmt.Sprintf("Proto: &model.Proto{New: protoNew%d, To: protoTo%d, From: protoFrom%d},\n", k, k, k)
		}
		if protoNA != "" {
			opt += "ProtoNA: " + strconv.Quote(protoNA) + ",\n"
		}
		if na := handNA(m); na != "" {
			opt += "HandNA: " + strconv.Quote(na) + ",\n"
		} else {
			opt += fmt.Sprintf("Hand: &model.Hand{Encode: hwEncode%d, Decode: hwDecode%d},\n", k, k)
		}
		if e.p.family != "" {
			opt += "Family: " + strconv.Quote(e.p.family) + ",\n"
		}
		if fbNA == "" {
			opt += fmt.Sprintf("FlatBuffers: fbGlue%d,\n", k)
		} else {
			opt += "FlatBuffersNA: " + strconv.Quote(fbNA) + ",\n"
		}
		if slices.Contains(e.avro, k) {
			opt += fmt.Sprintf("Avro: avroBinding%d,\n", k)
		} else if avroNA != "" {
			opt += "AvroNA: " + strconv.Quote(avroNA) + ",\n"
		}
		fmt.Fprintf(&reg, `model.Register(&model.Typed{
Dataset: %q, User: %v, TypesSHA256: %q,
TypesJSON: %s,
New: func() any { return new(%s) },
FromTree: func(t any) any { v := from%d(t); return &v },
ToTree: func(m any) any { return to%d(*m.(*%s)) },
%s})
`, m.dataset, e.p.user, e.p.sha, strconv.Quote(m.text), gt, i, i, gt, opt)
	}
	reg.WriteString("}\n\n")
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by serbench/tools/typegen. DO NOT EDIT.\n\npackage %s\n\n", e.p.name)
	uses := map[string]bool{"serbench/internal/model": true}
	for k := range e.uses {
		uses[k] = true
	}
	writeImports(&b, uses)
	b.WriteString("// The conversions between the generic value tree (model.Build) and the typed values.\n\n")
	b.Write(reg.Bytes())
	b.Write(e.fns.Bytes())
	return gofmt(b.Bytes())
}

// bareValue is how msgp writes a bare record's field of type v: "intf" (any, null),
// "time", "methods" (a record or enum: its own methods), or "named" (a named copy of the
// type, for which msgp generates methods: valueDecls).
func bareValue(v *model.UType) string {
	switch {
	case nilable(v):
		return "intf"
	case v.Kind == model.URecord || v.Kind == model.UEnum:
		return "methods"
	case v.Kind == model.UPrim && v.Name == "timestamp_ms":
		return "time"
	}
	return "named"
}

// bareField is a bare record's field: its Go name, its type without the optional, and
// whether it is optional (a pointer).
func (e *emitter) bareField(n string) (string, *model.UType, bool) {
	f := e.named[n].Fields[0]
	v, opt := f.Type, f.Type.Kind == model.UOptional && !nilable(f.Type.Of)
	if opt {
		v = f.Type.Of
	}
	return unique(exported(f.Key), map[string]bool{}), v, opt
}

// valueDecls names the field types of bare records msgp writes through a named copy.
func (e *emitter) valueDecls() string {
	var b bytes.Buffer
	for _, n := range e.bare {
		if _, v, _ := e.bareField(n); bareValue(v) == "named" {
			e.values[n] = unique(e.names[n]+"Value", e.taken)
			fmt.Fprintf(&b, "// %s is the field of %s, which msgp writes bare.\ntype %s %s\n\n",
				e.values[n], e.names[n], e.values[n], e.goType(v))
		}
	}
	return b.String()
}

// bareFile writes the msgp methods of the records of one field: positional layouts write
// such a record as its field's value (S2's string message is a bare 8 KiB string, 8,195 bytes).
func (e *emitter) bareFile() []byte {
	var b bytes.Buffer
	for _, n := range e.bare {
		gn := e.names[n]
		f, v, opt := e.bareField(n)
		p := "&z." + f
		if opt {
			p = "z." + f
		}
		var mar, unm, size string
		switch bareValue(v) {
		case "intf":
			mar = fmt.Sprintf("return msgp.AppendIntf(b, z.%s)", f)
			unm = fmt.Sprintf("z.%s, rest, err = msgp.ReadIntfBytes(b)\nreturn rest, err", f)
			size = fmt.Sprintf("return msgp.GuessSize(z.%s)", f)
		case "time":
			mar = fmt.Sprintf("return msgp.AppendTimeExt(b, *%s), nil", p)
			unm = fmt.Sprintf("*%s, rest, err = msgp.ReadTimeUTCBytes(b)\nreturn rest, err", p)
			size = "return msgp.TimeSize"
		default:
			view := p
			if named := e.values[n]; named != "" {
				view = "(*" + named + ")(" + p + ")"
			}
			mar = "return " + view + ".MarshalMsg(b)"
			unm = "return " + view + ".UnmarshalMsg(b)"
			size = "return " + view + ".Msgsize()"
		}
		if opt {
			mar = fmt.Sprintf("if z.%s == nil {\nreturn msgp.AppendNil(b), nil\n}\n", f) + mar
			unm = fmt.Sprintf("if msgp.IsNil(b) {\nz.%s = nil\nreturn msgp.ReadNilBytes(b)\n}\nz.%s = new(%s)\n", f, f, e.goType(v)) + unm
			size = fmt.Sprintf("if z.%s == nil {\nreturn msgp.NilSize\n}\n", f) + size
		}
		fmt.Fprintf(&b, "// MarshalMsg writes %[1]s as its one field's value, not an array of one.\nfunc (z *%[1]s) MarshalMsg(b []byte) ([]byte, error) {\n%[2]s\n}\n\n", gn, mar)
		fmt.Fprintf(&b, "// UnmarshalMsg reads %[1]s as its one field's value.\nfunc (z *%[1]s) UnmarshalMsg(b []byte) (rest []byte, err error) {\n%[2]s\n}\n\n", gn, unm)
		fmt.Fprintf(&b, "// Msgsize bounds the encoded size.\nfunc (z *%[1]s) Msgsize() int {\n%[2]s\n}\n\n", gn, size)
	}
	var src bytes.Buffer
	fmt.Fprintf(&src, "// Code generated by serbench/tools/typegen. DO NOT EDIT.\n\npackage %s\n\n", e.p.name)
	if bytes.Contains(b.Bytes(), []byte("msgp.")) {
		src.WriteString("import \"github.com/tinylib/msgp/msgp\"\n\n")
	}
	src.Write(b.Bytes())
	return gofmt(src.Bytes())
}

func writeImports(b *bytes.Buffer, uses map[string]bool) {
	if len(uses) == 0 {
		return
	}
	b.WriteString("import (\n")
	for _, k := range sortedKeys(uses) {
		fmt.Fprintf(b, "\t%q\n", k)
	}
	b.WriteString(")\n\n")
}

// gofmt formats generated source; a formatting error is a generator bug, so the source is
// kept as it is for the compiler to point at.
func gofmt(src []byte) []byte {
	if out, err := format.Source(src); err == nil {
		return out
	}
	return src
}
