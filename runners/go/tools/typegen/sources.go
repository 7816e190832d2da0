package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"serbench/internal/model"
)

// source is one types file to generate a package from.
type source struct {
	name  string // the dataset (user) or dataset folder (built-in)
	pkg   string // the Go package name
	path  string // the types file
	user  bool
	proto *protoSchema
	fbs   string // the .fbs, or "" (none: the flatbuffers rows say why)
}

// builtinSources lists datasets/<family>/types.json, with the family's .proto from the
// schemas the build generated (schemas/<family>/*.proto).
func builtinSources(dir, schemas string) ([]source, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "types.json"))
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("no built-in types files under %s (set SERBENCH_DATASETS_DIR)", dir)
	}
	sort.Strings(paths)
	taken := map[string]bool{}
	var out []source
	for _, p := range paths {
		family := filepath.Base(filepath.Dir(p))
		s := source{name: family, pkg: unique(packageName("", family), taken), path: p}
		protos, _ := filepath.Glob(filepath.Join(schemas, family, "*.proto"))
		if len(protos) != 1 {
			return nil, fmt.Errorf("%s: want one .proto (set SERBENCH_SCHEMAS_DIR)", filepath.Join(schemas, family))
		}
		s.proto = &protoSchema{path: protos[0], builtin: true}
		if fbs, _ := filepath.Glob(filepath.Join(schemas, family, "*.fbs")); len(fbs) == 1 {
			s.fbs = fbs[0]
		}
		out = append(out, s)
	}
	return out, nil
}

// userSources lists the registered user datasets (<registry>/<name>/dataset.json names the
// types file); a missing registry is no user datasets.
func userSources(dir string) []source {
	metas, _ := filepath.Glob(filepath.Join(dir, "*", "dataset.json"))
	sort.Strings(metas)
	taken := map[string]bool{}
	var out []source
	for _, m := range metas {
		var meta struct {
			Name    string `json:"name"`
			Types   string `json:"types"`
			Schemas struct {
				Proto struct {
					Path          string `json:"path"`
					DescriptorSet string `json:"descriptor_set"`
					Message       string `json:"message"`
				} `json:"proto"`
				Fbs struct {
					Path string `json:"path"`
				} `json:"fbs"`
			} `json:"schemas"`
		}
		raw, err := os.ReadFile(m)
		if err == nil {
			err = json.Unmarshal(raw, &meta)
		}
		if err != nil || meta.Name == "" || meta.Types == "" {
			fmt.Fprintf(os.Stderr, "typegen: skipping %s: no name or types file\n", m)
			continue
		}
		dir := filepath.Dir(m)
		s := source{name: meta.Name, pkg: unique(packageName("user", meta.Name), taken),
			path: filepath.Join(dir, meta.Types), user: true}
		if pr := meta.Schemas.Proto; pr.Path != "" && pr.DescriptorSet != "" {
			s.proto = &protoSchema{path: filepath.Join(dir, pr.Path), descSet: filepath.Join(dir, pr.DescriptorSet),
				roots: map[string]string{meta.Name: pr.Message}}
		}
		if f := meta.Schemas.Fbs.Path; f != "" {
			s.fbs = filepath.Join(dir, f)
		}
		out = append(out, s)
	}
	return out
}

// fixtureSources lists test fixtures: DIR/NAME.types.json, registered as user dataset NAME.
func fixtureSources(dir string) []source {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.types.json"))
	sort.Strings(paths)
	taken := map[string]bool{}
	var out []source
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".types.json")
		s := source{name: name, pkg: unique(packageName("", name), taken), path: p, user: true}
		base := filepath.Join(dir, name)
		if _, err := os.Stat(base + ".pb"); err == nil {
			s.proto = &protoSchema{path: base + ".proto", descSet: base + ".pb"}
		}
		if _, err := os.Stat(base + ".fbs"); err == nil {
			s.fbs = base + ".fbs"
		}
		out = append(out, s)
	}
	return out
}

// load parses the types file: "message" is one type, or (S2) an object of dataset name ->
// type, one model per dataset.
func (s source) load() (*pkg, error) {
	raw, err := os.ReadFile(s.path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	p := &pkg{name: s.pkg, user: s.user, sha: hex.EncodeToString(sum[:]), proto: s.proto}
	if !s.user {
		p.family = s.name
	}
	if s.proto != nil { // a changed schema regenerates the package too
		file := s.proto.descSet
		if s.proto.builtin {
			file = s.proto.path
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(raw)
		p.stamp = hex.EncodeToString(sum[:])
	}
	if s.fbs != "" { // so is a changed .fbs
		fbs, sum, err := readFBSchema(s.fbs)
		if err != nil {
			return nil, err
		}
		p.fbs, p.stamp = fbs, p.stamp+" "+sum
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if p.proto != nil && p.proto.builtin {
		if err := p.proto.hints(doc["schema"], s.name); err != nil {
			return nil, err
		}
	}
	if p.avro, err = readAvroHints(doc["schema"]); err != nil {
		return nil, err
	}
	messages := map[string]string{}
	var one string
	if err := json.Unmarshal(doc["message"], &one); err == nil {
		messages[s.name] = one
	} else if err := json.Unmarshal(doc["message"], &messages); err != nil {
		return nil, fmt.Errorf("message: neither a type nor an object of dataset -> type")
	}
	for _, ds := range sortedKeys(messages) {
		doc["message"], _ = json.Marshal(messages[ds])
		text, _ := json.Marshal(doc)
		types, err := model.ParseUserTypes(text)
		if err != nil {
			return nil, err
		}
		p.messages = append(p.messages, message{dataset: ds, types: types, text: string(text)})
	}
	return p, nil
}

// hints reads what a built-in types file tells the schema writers: the root message
// wrapping a message that is not a record ("root": [message, field]) and fields stored as
// another proto type ("field_types": {"protobuf": {"Record.field": type}}).
func (ps *protoSchema) hints(raw json.RawMessage, dataset string) error {
	if raw == nil {
		return nil
	}
	var h struct {
		Root       []string                     `json:"root"`
		FieldTypes map[string]map[string]string `json:"field_types"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	if len(h.Root) > 0 {
		ps.roots = map[string]string{dataset: h.Root[0]}
	}
	ps.fieldTypes = h.FieldTypes["protobuf"]
	return nil
}
