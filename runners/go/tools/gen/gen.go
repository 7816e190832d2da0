// Package gen runs the code generators at build time (go generate ./...): protoc with
// protoc-gen-go and protoc-gen-go-vtproto, and flatc 25 (gen.sh). Everything it writes
// is under the git-ignored gen/ and bin/ folders.
package gen

//go:generate go build -o ../../bin/ google.golang.org/protobuf/cmd/protoc-gen-go github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto
//go:generate sh gen.sh
