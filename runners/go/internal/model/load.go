package model

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

type envelope struct {
	Format  string            `json:"format"`
	Name    string            `json:"name"`
	Framing string            `json:"framing"`
	Count   int               `json:"count"`
	Items   []json.RawMessage `json:"items"`
}

type testClassJSON struct {
	MyProperty1 string `json:"MyProperty1"`
	MyProperty2 int32  `json:"MyProperty2"`
	MyProperty3 int64  `json:"MyProperty3"`
	MyProperty4 bool   `json:"MyProperty4"`
	MyProperty5 []Pair `json:"MyProperty5"`
}

// Millis is the native date-time of a timestamp_ms value.
func Millis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// Load reads a built-in dataset's canonical file into native values.
func Load(name, path string) (*Dataset, error) {
	kind, ok := KindOf(name)
	if !ok {
		return nil, fmt.Errorf("unknown dataset %q", name)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if env.Format != "serbench-dataset" || len(env.Items) == 0 || env.Count < 1 {
		return nil, fmt.Errorf("%s: not a serbench dataset file", path)
	}
	d := &Dataset{Name: name, Kind: kind, Stream: env.Framing == "stream", Count: env.Count}
	for i, item := range env.Items {
		v, err := parseItem(kind, item)
		if err != nil {
			return nil, fmt.Errorf("%s: item %d: %w", path, i, err)
		}
		d.Items = append(d.Items, v)
	}
	return d, nil
}

func parseItem(kind Kind, item json.RawMessage) (any, error) {
	if kind == LogRecords {
		var rows []testClassJSON
		if err := json.Unmarshal(item, &rows); err != nil {
			return nil, err
		}
		out := make([]TestClass, len(rows))
		for i, r := range rows {
			out[i] = TestClass{r.MyProperty1, r.MyProperty2, Millis(r.MyProperty3), r.MyProperty4, r.MyProperty5}
		}
		return &out, nil
	}
	v := New(kind)
	if err := json.Unmarshal(item, v); err != nil {
		return nil, err
	}
	return v, nil
}
