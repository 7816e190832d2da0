package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

type envelope struct {
	Format  string            `json:"format"`
	Name    string            `json:"name"`
	Framing string            `json:"framing"`
	Count   int               `json:"count"`
	Items   []json.RawMessage `json:"items"`
}

// readCanonical reads a canonical file's envelope and each item as a generic tree of t.
func readCanonical(path string, t *UType) (*envelope, []any, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if env.Format != "serbench-dataset" || len(env.Items) == 0 || env.Count < 1 {
		return nil, nil, fmt.Errorf("%s: not a serbench dataset file", path)
	}
	trees := make([]any, len(env.Items))
	for i, item := range env.Items {
		dec := json.NewDecoder(bytes.NewReader(item))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, nil, fmt.Errorf("%s: item %d: %w", path, i, err)
		}
		if trees[i], err = Build(t, v, "$"); err != nil {
			return nil, nil, fmt.Errorf("%s: item %d: %w", path, i, err)
		}
	}
	return &env, trees, nil
}

// Load reads a built-in dataset's canonical file into values of its generated model.
func Load(name, path string) (*Dataset, error) {
	t := TypedFor(name, false)
	if t == nil {
		return nil, fmt.Errorf("unknown dataset %q", name)
	}
	env, trees, err := readCanonical(path, t.Types.Message)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: name, Kind: BuiltinKind, Stream: env.Framing == "stream", Count: env.Count, Model: t}
	for _, tree := range trees {
		d.Items = append(d.Items, t.FromTree(tree))
	}
	return d, nil
}
