package harness

import (
	"debug/elf"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"serbench/internal/model"
)

// ModuleVersion is the version of a dependency as linked into this binary
// ("go1.26.x" for the standard library).
func ModuleVersion(module string) string {
	if !strings.Contains(strings.Split(module, "/")[0], ".") {
		return runtime.Version()
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == module {
				if d.Replace != nil {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return "unknown"
}

// footprints sums, per module prefix, the sizes of this executable's symbols that
// belong to it: the code and data the library adds after the linker's dead-code removal.
func footprints(modules []string) map[string]int64 {
	out := map[string]int64{}
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	f, err := elf.Open(exe)
	if err != nil {
		return nil
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil
	}
	for _, s := range syms {
		name := strings.TrimPrefix(strings.TrimPrefix(s.Name, "type:"), "*")
		name = strings.TrimPrefix(name, "go:itab.*")
		for _, m := range modules {
			if strings.HasPrefix(name, m) && len(name) > len(m) && (name[len(m)] == '.' || name[len(m)] == '/') {
				out[m] += int64(s.Size)
			}
		}
	}
	return out
}

// Describe builds the describe object.
func Describe(runner string, sers []*Serializer) map[string]any {
	var modules []string
	for _, s := range sers {
		if s.Module != "" {
			modules = append(modules, s.Module)
		}
	}
	fp := footprints(modules)
	list := []any{}
	for _, s := range sers {
		ds := map[string]any{}
		for _, name := range model.Builtin() {
			a := map[string]any{"applicable": true}
			if s.Applicable != nil {
				if err := s.Applicable(model.TypedFor(name, false)); err != nil {
					a = map[string]any{"applicable": false, "reason": err.Error()}
				}
			}
			ds[name] = a
		}
		version := runtime.Version()
		var footprint any
		if s.Module != "" {
			version = ModuleVersion(s.Module)
			if n, ok := fp[s.Module]; ok && fp != nil {
				footprint = n
			}
		} else {
			footprint = 0
		}
		user := map[string]any{"applicable": true}
		if s.UserNA != "" {
			user = map[string]any{"applicable": false, "reason": s.UserNA}
		}
		list = append(list, map[string]any{
			"name": s.Name, "format": s.Format, "library": s.Library, "version": version,
			"labels": s.DescribedLabels(), "footprint_bytes": footprint, "datasets": ds,
			"user_datasets": user,
		})
	}
	details := "gc " + runtime.GOOS + "/" + runtime.GOARCH + ", GOMAXPROCS=" + itoa(runtime.GOMAXPROCS(0))
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, st := range info.Settings {
			switch st.Key {
			case "-gcflags", "-ldflags", "-trimpath", "GOAMD64", "CGO_ENABLED", "-tags":
				details += ", " + st.Key + "=" + st.Value
			}
		}
	}
	details += ", default optimisation (go build; no -N/-l), measuring goroutine locked to its OS thread"
	return map[string]any{
		"protocol": 2, "protocol_minor": 1, "runner": runner, "language": "go",
		"runtime":      map[string]any{"name": "Go (gc)", "version": runtime.Version(), "details": details},
		"capabilities": []string{"transport", "decode_from", "user_datasets", "untrusted", "avro_container"},
		"serializers":  list,
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
