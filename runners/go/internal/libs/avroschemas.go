package libs

import (
	"fmt"
	"strings"

	avscfs "serbench/gen/avsc"
	"serbench/internal/model"
)

// avsc returns a built-in dataset's schema text, embedded at build time (gen/avsc holds the
// .avsc that serbench generated per datasets/<family>/types.json, named after the family),
// and, when that file is a union of several datasets' records (S2), the record to pick: the
// message's own.
func avsc(t *model.Typed) (string, string, error) {
	if t == nil || t.Family == "" {
		return "", "", fmt.Errorf("no .avsc for this dataset")
	}
	b, err := avscfs.FS.ReadFile(strings.ReplaceAll(t.Family, "-", "_") + ".avsc")
	text := strings.TrimSpace(string(b))
	if err != nil || !strings.HasPrefix(text, "[") {
		return text, "", err
	}
	return text, t.Types.Message.Name, nil
}
