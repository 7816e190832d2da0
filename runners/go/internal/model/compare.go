package model

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

var timeType = reflect.TypeOf(time.Time{})

// Diff compares a decoded message with the original and names the first difference as a
// path below prefix ("" when equal). Pointers are followed; nil and empty lists and maps
// are equal; time.Time compares instants; NaN equals NaN and -0.0 differs from 0.0.
func Diff(prefix string, got, want any) string {
	return diff(prefix, reflect.ValueOf(got), reflect.ValueOf(want))
}

func show(v reflect.Value) string {
	if !v.IsValid() {
		return "null"
	}
	if v.Kind() == reflect.String {
		s := v.String()
		if len(s) > 40 {
			return strconv.Quote(s[:40]) + fmt.Sprintf("...(%d bytes)", len(s))
		}
		return strconv.Quote(s)
	}
	if v.Type() == timeType {
		return v.Interface().(time.Time).UTC().Format(time.RFC3339Nano)
	}
	if v.CanInterface() {
		s := fmt.Sprint(v.Interface())
		if len(s) > 60 {
			s = s[:60] + "..."
		}
		return s
	}
	return v.Kind().String()
}

func deref(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

func diff(path string, got, want reflect.Value) string {
	got, want = deref(got), deref(want)
	if !got.IsValid() || !want.IsValid() {
		if got.IsValid() == want.IsValid() {
			return ""
		}
		// an empty list/map equals an absent one
		for _, v := range []reflect.Value{got, want} {
			if v.IsValid() && (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
				return ""
			}
		}
		return fmt.Sprintf("%s: %s != %s", path, show(got), show(want))
	}
	if got.Type() != want.Type() && !(isNumber(got) && isNumber(want)) {
		return fmt.Sprintf("%s: %s (%s) != %s (%s)", path, show(got), got.Type(), show(want), want.Type())
	}
	switch want.Kind() {
	case reflect.Struct:
		if want.Type() == timeType {
			if !got.Interface().(time.Time).Equal(want.Interface().(time.Time)) {
				return fmt.Sprintf("%s: %s != %s", path, show(got), show(want))
			}
			return ""
		}
		t := want.Type()
		for i := 0; i < t.NumField(); i++ {
			if !t.Field(i).IsExported() {
				continue
			}
			name := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
			if name == "" {
				name = t.Field(i).Name
			}
			if d := diff(path+"."+name, got.Field(i), want.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if want.Type().Elem().Kind() == reflect.Uint8 {
			if string(got.Bytes()) != string(want.Bytes()) {
				return fmt.Sprintf("%s: %x != %x", path, got.Bytes(), want.Bytes())
			}
			return ""
		}
		n := min(got.Len(), want.Len())
		for i := 0; i < n; i++ {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), got.Index(i), want.Index(i)); d != "" {
				return d
			}
		}
		if got.Len() != want.Len() {
			return fmt.Sprintf("%s: length %d != %d", path, got.Len(), want.Len())
		}
		return ""
	case reflect.Map:
		keys := want.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			p := fmt.Sprintf("%s[%s]", path, strconv.Quote(fmt.Sprint(k.Interface())))
			g := got.MapIndex(k)
			if !g.IsValid() {
				return p + ": missing"
			}
			if d := diff(p, g, want.MapIndex(k)); d != "" {
				return d
			}
		}
		if got.Len() != want.Len() {
			for _, k := range got.MapKeys() {
				if !want.MapIndex(k).IsValid() {
					return fmt.Sprintf("%s[%s]: unexpected key", path, strconv.Quote(fmt.Sprint(k.Interface())))
				}
			}
			return fmt.Sprintf("%s: %d keys != %d", path, got.Len(), want.Len())
		}
		return ""
	case reflect.Float32, reflect.Float64:
		a, b := got.Float(), want.Float()
		if (math.IsNaN(a) && math.IsNaN(b)) || (a == b && math.Signbit(a) == math.Signbit(b)) {
			return ""
		}
		return fmt.Sprintf("%s: %v != %v", path, a, b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if numString(got) != numString(want) {
			return fmt.Sprintf("%s: %s != %s", path, numString(got), numString(want))
		}
		return ""
	default:
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			return fmt.Sprintf("%s: %s != %s", path, show(got), show(want))
		}
		return ""
	}
}

func isNumber(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

func numString(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	}
	return show(v)
}
