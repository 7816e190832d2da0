package libs

import (
	"encoding/json"

	"github.com/bytedance/sonic"
	"github.com/fxamacker/cbor/v2"
	gojson "github.com/goccy/go-json"
	jsoniter "github.com/json-iterator/go"
	"github.com/vmihailenco/msgpack/v5"

	"serbench/internal/harness"
)

// Each dynamic row's library decoding to its generic value, for untrusted input
// (docs/runner-protocol.md section 11): the library's default settings, as a user who
// calls it on bytes from the network gets them.
func init() {
	into := func(unmarshal func([]byte, any) error) func([]byte) (any, error) {
		return func(src []byte) (any, error) {
			var v any
			err := unmarshal(src, &v)
			return v, err
		}
	}
	harness.Generic["json-dynamic"] = into(json.Unmarshal)
	harness.Generic["go-json-dynamic"] = into(gojson.Unmarshal)
	harness.Generic["sonic-dynamic"] = into(sonic.ConfigStd.Unmarshal)
	harness.Generic["jsoniter-dynamic"] = into(jsoniter.ConfigCompatibleWithStandardLibrary.Unmarshal)
	harness.Generic["msgpack-dynamic"] = into(msgpack.Unmarshal)
	harness.Generic["cbor-dynamic"] = into(cbor.Unmarshal)
	harness.GenericEncode["msgpack-dynamic"] = msgpack.Marshal
	harness.CanonicalHooks = append(harness.CanonicalHooks, func(v any, depth int) (any, bool) {
		switch x := v.(type) {
		case cbor.Tag:
			return map[string]any{"$tag": []any{x.Number, harness.Canonical(x.Content, depth+1)}}, true
		case cbor.SimpleValue:
			return map[string]any{"$simple": uint8(x)}, true
		}
		return nil, false
	})
}
