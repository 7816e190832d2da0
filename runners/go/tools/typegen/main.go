// Command typegen generates the typed model of every dataset from its types file (run by
// go generate, tools/gen): one package per built-in dataset folder
// ($SERBENCH_DATASETS_DIR/*/types.json) and per registered user dataset
// ($SERBENCH_USER_DATASETS_DIR/*/dataset.json), holding the Go types with the struct tags
// the libraries read, msgp's methods (by running the pinned msgp tool on them), the
// conversions from and to the generic value tree, the conversions to and from the
// protoc-gen-go messages of its .proto (a user dataset's compiled here, into pb/), the glue
// to flatc's Go code of its .fbs (fb.go; the .fbs compiled here, into fb/), hamba/avro's
// mirror structs where the .avsc differs from the model (avro.go), and the registration
// with its types file's sha256. A package whose inputs and generator are
// unchanged is skipped.
package main

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// self is the generator's own source: a change to it regenerates every package.
//
//go:embed *.go
var self embed.FS

func main() {
	out := flag.String("out", "../../typed", "output folder (one package per dataset)")
	tools := flag.String("tools", "../../bin", "the folder of the code generators (msgp, protoc-gen-go, protoc-gen-go-vtproto)")
	fixtures := flag.String("fixtures", "", "a folder of NAME.types.json test fixtures, generated into OUT/fixtures")
	flag.Parse()
	start := time.Now()
	if err := run(*out, *tools, *fixtures); err != nil {
		fmt.Fprintln(os.Stderr, "typegen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "typegen: %.1f s\n", time.Since(start).Seconds())
}

func run(out, tools, fixtures string) error {
	tools, err := filepath.Abs(tools)
	if err != nil {
		return err
	}
	builtins, err := builtinSources(datasetsDir(), schemasDir())
	if err != nil {
		return err
	}
	if err := generate(out, "typed", append(builtins, userSources(userDir())...), tools); err != nil {
		return err
	}
	if fixtures == "" {
		return nil
	}
	return generate(filepath.Join(out, "fixtures"), "typed/fixtures", fixtureSources(fixtures), tools)
}

// generate writes one package per source under out (skipping unchanged ones), removes
// those of sources that are gone and writes the package importing them all.
func generate(out, importPath string, sources []source, tools string) error {
	gen := generatorHash()
	var pkgs []string
	generated, unchanged := 0, 0
	for _, s := range sources {
		p, err := s.load()
		if err != nil {
			if s.user { // a broken user dataset must not break the build of the others
				fmt.Fprintf(os.Stderr, "typegen: skipping user dataset %s: %v\n", s.name, err)
				continue
			}
			return err
		}
		dir := filepath.Join(out, p.name)
		p.path = "serbench/" + importPath + "/" + p.name
		stamp := p.sha + " " + gen + " " + p.stamp + "\n"
		pkgs = append(pkgs, p.name)
		if old, err := os.ReadFile(filepath.Join(dir, stampFile)); err == nil && string(old) == stamp {
			unchanged++
			continue
		}
		if err := writePackage(dir, p, tools); err != nil {
			return fmt.Errorf("%s: %w", s.path, err)
		}
		if err := os.WriteFile(filepath.Join(dir, stampFile), []byte(stamp), 0o644); err != nil {
			return err
		}
		generated++
	}
	removed, err := removeStale(out, pkgs)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "typegen: %s: %d packages generated, %d unchanged, %d removed\n", out, generated, unchanged, removed)
	return writeIfChanged(filepath.Join(out, filepath.Base(importPath)+".go"), registryFile(importPath, pkgs))
}

// stampFile records what a package was generated from (ignored by the go tool: a dot file).
const stampFile = ".typegen"

func generatorHash() string {
	h := sha256.New()
	names, _ := fs.Glob(self, "*.go")
	for _, n := range names {
		b, _ := self.ReadFile(n)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func datasetsDir() string {
	if d := os.Getenv("SERBENCH_DATASETS_DIR"); d != "" {
		return d
	}
	return "../../../../datasets"
}

// schemasDir holds the built-ins' schemas the build generated (as tools/gen/gen.sh reads them).
func schemasDir() string {
	if d := os.Getenv("SERBENCH_SCHEMAS_DIR"); d != "" {
		return d
	}
	return "../../../../.serbench/gen/schemas"
}

// userDir is the user-dataset registry: $SERBENCH_USER_DATASETS_DIR, else where serbench
// keeps it ($SERBENCH_HOME/user, or the repository's .serbench/user).
func userDir() string {
	if d, ok := os.LookupEnv("SERBENCH_USER_DATASETS_DIR"); ok {
		return d
	}
	if h := os.Getenv("SERBENCH_HOME"); h != "" {
		return filepath.Join(h, "user")
	}
	return "../../../../.serbench/user"
}

// removeStale deletes generated packages of datasets that are gone; how many.
func removeStale(out string, keep []string) (int, error) {
	entries, err := os.ReadDir(out)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		dir := filepath.Join(out, e.Name())
		if _, err := os.Stat(filepath.Join(dir, stampFile)); err != nil || contains(keep, e.Name()) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// registryFile imports every generated package, so each registers its models.
func registryFile(importPath string, pkgs []string) []byte {
	sort.Strings(pkgs)
	name := filepath.Base(importPath)
	var b strings.Builder
	b.WriteString("// Code generated by serbench/tools/typegen. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "// Package %s links in the generated models (each registers itself).\npackage %s\n\n", name, name)
	if len(pkgs) > 0 {
		b.WriteString("import (\n")
		for _, p := range pkgs {
			fmt.Fprintf(&b, "\t_ \"serbench/%s/%s\"\n", importPath, p)
		}
		b.WriteString(")\n")
	}
	return gofmt([]byte(b.String()))
}

func writeIfChanged(path string, b []byte) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == string(b) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
