package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"serbench/internal/model"
)

// writePackage writes one dataset package from scratch: model.go, msgp's msgp_gen.go
// (and bare.go for bare records), hw.go, fb.go, avro.go, tree.go.
func writePackage(dir string, p *pkg, tools string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	e := newEmitter(p)
	if err := os.WriteFile(filepath.Join(dir, "model.go"), e.modelFile(), 0o644); err != nil {
		return err
	}
	na := msgpUnfit(p)
	if na == "" {
		if err := runMsgp(dir, filepath.Join(tools, "msgp")); err != nil {
			if !p.user {
				return err
			}
			na = "msgp: the msgp tool could not generate code for this dataset's types: " + err.Error()
		}
	}
	if na == "" && len(e.bare) > 0 { // they call msgp's methods
		if err := os.WriteFile(filepath.Join(dir, "bare.go"), e.bareFile(), 0o644); err != nil {
			return err
		}
	}
	protoNA := ""
	if p.proto != nil {
		err := writeProto(dir, e, p.proto, tools)
		if err == nil {
			err = compiles(dir)
		}
		if err != nil && p.proto.builtin {
			return err
		}
		if err != nil {
			os.RemoveAll(filepath.Join(dir, "pb"))
			os.Remove(filepath.Join(dir, "proto.go"))
			protoNA = "protobuf: no generated code for this dataset's .proto: " + err.Error()
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "hw.go"), e.hwFile(), 0o644); err != nil {
		return err
	}
	fbNA := writeFB(dir, e)
	avro, avroNA := e.avroFile()
	if avro != nil {
		if err := os.WriteFile(filepath.Join(dir, "avro.go"), avro, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "tree.go"), e.treeFile(na, p.proto != nil && protoNA == "", protoNA, fbNA, avroNA), 0o644)
}

// writeFB writes fb.go (after flatc compiled the dataset's .fbs) and compiles the package;
// "" or why the dataset has no glue, so a schema flatc or Go cannot compile costs only the
// dataset's flatbuffers rows.
func writeFB(dir string, e *emitter) string {
	src, na := e.fbFile()
	if na != "" {
		return na
	}
	err := e.p.fbs.flatc(dir, e.p.path)
	path := filepath.Join(dir, "fb.go")
	if err == nil {
		err = os.WriteFile(path, src, 0o644)
		if err == nil {
			err = compiles(dir)
		}
		if err != nil {
			err = fmt.Errorf("the Go code of this dataset's .fbs does not compile: %w", err)
		}
	}
	if err != nil {
		os.Remove(path)
		os.RemoveAll(filepath.Join(dir, "fb"))
		return "flatbuffers: " + err.Error()
	}
	return ""
}

// compiles builds the package, so generated code that does not compile (a generator bug)
// costs only this dataset's protobuf rows, not the runner's build.
func compiles(dir string) error {
	gobin := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if os.Getenv("GOROOT") == "" {
		gobin = "go"
	}
	cmd := exec.Command(gobin, "build", "./"+filepath.Base(dir)+"/...")
	cmd.Dir = filepath.Dir(dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, firstError(out.String()))
	}
	return nil
}

// firstError is the compiler's first message (after the "# package" header).
func firstError(s string) string {
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return s
}

// runMsgp runs the pinned msgp tool on model.go (marshal/unmarshal to byte slices only).
func runMsgp(dir, msgpBin string) error {
	err := command(msgpBin, dir, "-file", "model.go", "-o", "msgp_gen.go", "-tests=false", "-io=false")
	if err != nil {
		os.Remove(filepath.Join(dir, "msgp_gen.go"))
	}
	return err
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// msgpUnfit is why msgp cannot carry a dataset's types (bigint: MessagePack integers stop
// at 64 bits), or "".
func msgpUnfit(p *pkg) string {
	for _, m := range p.messages {
		if path := model.FindType(m.types.Message, "$", func(t *model.UType) bool {
			return t.Kind == model.UPrim && t.Name == "bigint"
		}); path != "" {
			return "msgp: " + path + " is bigint, and MessagePack integers stop at 64 bits"
		}
	}
	return ""
}
