package libs

import (
	"runtime"

	"github.com/bytedance/sonic"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// sonic: bytedance/sonic with its standard-library-compatible configuration; on amd64 it
// compiles encoders and decoders per type at run time (JIT), elsewhere it falls back.
var sonicJSON = &harness.Serializer{
	Name: "sonic", Format: "json", Library: "github.com/bytedance/sonic", Module: "github.com/bytedance/sonic",
	Labels: sonicLabels(),
	Codec: func(d *model.Dataset) (*harness.Codec, error) {
		api := sonic.ConfigStd
		if d.Kind == model.UserKind {
			exact := sonic.Config{EscapeHTML: true, SortMapKeys: true, CompactMarshaler: true,
				CopyString: true, ValidateString: true, UseNumber: true}.Froze()
			return jsonUser(d, "sonic", api.Marshal, func(src []byte, v *any) error { return exact.Unmarshal(src, v) })
		}
		return reflectiveCodec(d, api.Marshal, api.Unmarshal), nil
	},
}

func sonicLabels() []string {
	l := []string{"text", "schemaless", "reflective", "map-layout", "copying-decode"}
	if runtime.GOARCH == "amd64" {
		l = append(l, "needs-jit")
	}
	return l
}
