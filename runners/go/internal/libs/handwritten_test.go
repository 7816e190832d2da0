package libs

import (
	"testing"

	"serbench/internal/model"
)

// TestHandwrittenRejects: the generated decoders refuse every truncation of a message and
// a trailing byte (built-ins and the user fixture with every kind of type).
func TestHandwrittenRejects(t *testing.T) {
	var sets []*model.Dataset
	for _, ds := range model.Builtin() {
		sets = append(sets, testDataset(t, ds))
	}
	u, why := loadUserFixture(t, "typed", "typed.json").TypedView()
	if why != "" {
		t.Fatal(why)
	}
	sets = append(sets, u)
	for _, d := range sets {
		h := d.Model.Hand
		if h == nil {
			t.Fatalf("%s: %s", d.Name, d.Model.HandNA)
		}
		b := h.Encode(nil, d.Items[0])
		if _, err := h.Decode(b); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if _, err := h.Decode(append(b[:len(b):len(b)], 0)); err == nil {
			t.Errorf("%s: a trailing byte decoded without an error", d.Name)
		}
		step := max(1, len(b)/500) // every prefix of the small messages, 500 of a large one
		for n := 0; n < len(b); n += step {
			if _, err := h.Decode(b[:n]); err == nil {
				t.Errorf("%s: %d of %d bytes decoded without an error", d.Name, n, len(b))
				break
			}
		}
	}
}
