package main

import (
	"strconv"
	"strings"
	"unicode"
)

// initialisms are written in capitals, as Go names do (id -> ID, url -> URL).
var initialisms = map[string]bool{"id": true, "url": true, "uri": true, "http": true, "json": true, "api": true}

// reserved are the method names msgp generates on a type, which a field cannot take.
var reserved = map[string]bool{"MarshalMsg": true, "UnmarshalMsg": true, "Msgsize": true, "DecodeMsg": true, "EncodeMsg": true}

// exported turns a field or type name into an exported Go identifier: words split at
// non-alphanumerics, each capitalised (camelCase kept), initialisms upper-cased.
func exported(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	var b strings.Builder
	for _, w := range words {
		if initialisms[strings.ToLower(w)] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "F" + s
	}
	return s
}

// unique returns name, or name with the first free number appended, and marks it taken.
func unique(name string, taken map[string]bool) string {
	n := name
	for i := 2; taken[n] || reserved[n]; i++ {
		n = name + strconv.Itoa(i)
	}
	taken[n] = true
	return n
}

// packageName is a lower-case Go package name for a dataset folder or user dataset.
func packageName(prefix, name string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, r := range strings.ToLower(name) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "d" + s
	}
	return s
}

// avroName is a field's name in the generated Avro schema (protocol section 7):
// [A-Za-z_][A-Za-z0-9_]*, other characters '_', a leading digit prefixed with '_'.
func avroName(key string) string {
	var b strings.Builder
	for _, r := range key {
		if r < unicode.MaxASCII && (r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "_" + s
	}
	return s
}

// taggable tells whether a record key can be a struct tag name: not empty, not "-", and
// only the characters encoding/json accepts in a tag name (cbor, msgpack and bson follow
// the same convention).
func taggable(key string) bool {
	if key == "" || key == "-" {
		return false
	}
	for _, r := range key {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		default:
			return false
		}
	}
	return true
}
