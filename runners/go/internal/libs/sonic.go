package libs

import (
	"runtime"

	"github.com/bytedance/sonic"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// sonic: bytedance/sonic with its standard-library-compatible configuration, on the typed
// model; on amd64 it compiles encoders and decoders per type at run time (JIT), elsewhere
// it falls back.
var sonicJSON = &harness.Serializer{
	Name: "sonic", Format: "json", Library: "github.com/bytedance/sonic", Module: "github.com/bytedance/sonic",
	Labels: sonicLabels(),
	Typed:  true,
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		if err := typedFit("sonic", d, noNonFinite); err != nil {
			return nil, err
		}
		return reflectiveCodec(d, sonic.ConfigStd.Marshal, sonic.ConfigStd.Unmarshal), nil
	},
}

// sonic-dynamic: the same library on the generic value tree, numbers decoded exactly.
var sonicDynamic = dynamicRow(sonicJSON, func(d *model.Dataset) (*harness.Codec, error) {
	exact := sonic.Config{EscapeHTML: true, SortMapKeys: true, CompactMarshaler: true,
		CopyString: true, ValidateString: true, UseNumber: true}.Froze()
	return jsonUser(d, "sonic", sonic.ConfigStd.Marshal, func(src []byte, v *any) error { return exact.Unmarshal(src, v) })
})

func sonicLabels() []string {
	l := []string{"text", "schemaless", "reflective", "map-layout", "copying-decode", "enum-as-ordinal", "timestamp-as-text"}
	if runtime.GOARCH == "amd64" {
		l = append(l, "needs-jit")
	}
	return l
}
