#!/bin/sh
# Generates Go code from the built-in datasets' schemas into ../../gen (git-ignored). The
# schemas are generated from datasets/*/types.json by `serbench build`, which passes their
# folder as SERBENCH_SCHEMAS_DIR. protoc is called by its pinned path, whatever PATH holds:
# Debian's (apt-packages.txt). The .fbs files are compiled by tools/typegen, into each
# dataset's typed package.
set -e
ROOT=../../../..
SCHEMAS=${SERBENCH_SCHEMAS_DIR:-$ROOT/.serbench/gen/schemas}
PROTOC=/usr/bin/protoc
if [ ! -d "$SCHEMAS" ]; then
  echo "serbench go runner: no generated schemas in $SCHEMAS: run \`serbench build -r go\`" >&2
  exit 1
fi
rm -rf ../../gen
for d in "$SCHEMAS"/*/; do
  "$PROTOC" -I "$d" \
    --plugin=protoc-gen-go=../../bin/protoc-gen-go \
    --plugin=protoc-gen-go-vtproto=../../bin/protoc-gen-go-vtproto \
    --go_out=../.. --go_opt=module=serbench \
    --go-vtproto_out=../.. --go-vtproto_opt=module=serbench,features=marshal+unmarshal+size \
    "$d"*.proto
done
# The .avsc schemas, embedded into the binary.
mkdir -p ../../gen/avsc
cp "$SCHEMAS"/*/*.avsc ../../gen/avsc/
cat > ../../gen/avsc/embed.go <<'GO'
// Package avsc embeds the dataset .avsc files (copied here by tools/gen/gen.sh).
package avsc

import "embed"

// FS holds android_users.avsc, pb_vs_msgpack.avsc, ...
//
//go:embed *.avsc
var FS embed.FS
GO
