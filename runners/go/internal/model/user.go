package model

import (
	"fmt"
	"os"
)

// UserInfo carries what a user dataset adds: its types and schemas (protocol section 7).
type UserInfo struct {
	TypesPath string
	Types     *UserTypes
	Schemas   map[string]Schema
}

// Schema is one schema entry of a user dataset (protocol section 7).
type Schema struct {
	Path          string `json:"path"`
	Message       string `json:"message"`
	Unavailable   string `json:"unavailable"`
	DescriptorSet string `json:"descriptor_set"`
}

// SchemaFor returns the dataset's schema of a kind ("proto", "avsc"), or the reason a
// serializer of format fmtName cannot use one.
func (u *UserInfo) SchemaFor(kind, fmtName string) (Schema, string) {
	s, ok := u.Schemas[kind]
	if !ok {
		return s, fmt.Sprintf("%s: the dataset has no %s schema", fmtName, kind)
	}
	if s.Unavailable != "" {
		return s, s.Unavailable
	}
	return s, ""
}

// LoadUser reads a user dataset: its types file, then the canonical file's items as
// generic value trees (records and maps as map[string]any, lists as []any, typed scalars);
// TypedView gives them as values of the generated model.
func LoadUser(name, path, typesPath string, schemas map[string]Schema) (*Dataset, error) {
	if typesPath == "" {
		return nil, fmt.Errorf("user dataset %q: no types file", name)
	}
	rawTypes, err := os.ReadFile(typesPath)
	if err != nil {
		return nil, err
	}
	types, err := ParseUserTypes(rawTypes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", typesPath, err)
	}
	env, trees, err := readCanonical(path, types.Message)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: name, Kind: UserKind, Stream: env.Framing == "stream", Count: env.Count,
		Items: trees, Trees: trees, User: &UserInfo{TypesPath: typesPath, Types: types, Schemas: schemas}}
	return d, nil
}

// MessagePath is where message i of a dataset starts in paths ("$", or "message 3: $").
func (d *Dataset) MessagePath(i int) string {
	if d.Stream && d.Count > 1 {
		return fmt.Sprintf("message %d: $", i)
	}
	return "$"
}

// FirstUnfit walks every item of a user dataset with test and returns the first objection
// as "VALUE at PATH REASON" (test returns value text and reason, or "" when it fits).
func (d *Dataset) FirstUnfit(test func(v any) (string, string), key func(k string) string) string {
	for i, item := range d.Trees {
		if p, what, why, ok := Find(item, "$", test, key); ok {
			if len(d.Items) > 1 {
				p += fmt.Sprintf(" (message %d)", i)
			}
			return fmt.Sprintf("%s at %s %s", what, p, why)
		}
	}
	return ""
}
