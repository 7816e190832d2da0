package libs

import (
	"fmt"
	"strings"

	avscfs "serbench/gen/avsc"
	"serbench/internal/model"
)

// The dataset .avsc files, embedded at build time (gen/avsc), and the record to pick
// from pb_vs_msgpack.avsc's union.
var avscFiles = map[model.Kind][2]string{
	model.AndroidUsers: {"android_users.avsc", ""},
	model.Test1Kind:    {"pb_vs_msgpack.avsc", "Test1"},
	model.Test2Kind:    {"pb_vs_msgpack.avsc", "Test2"},
	model.Test3Kind:    {"pb_vs_msgpack.avsc", "Test3"},
	model.Test4Kind:    {"pb_vs_msgpack.avsc", "Test4"},
	model.OneMbDict:    {"one_mb_dict.avsc", ""},
	model.ClickMaps:    {"click_maps.avsc", ""},
	model.LogRecords:   {"log_records.avsc", ""},
}

// avsc returns the schema text of a kind and the record name to pick from a union file.
func avsc(kind model.Kind) (string, string, error) {
	f, ok := avscFiles[kind]
	if !ok {
		return "", "", fmt.Errorf("no .avsc for this dataset")
	}
	b, err := avscfs.FS.ReadFile(f[0])
	return strings.TrimSpace(string(b)), f[1], err
}
