// Package gen runs the code generators at build time (go generate ./...): protoc with
// protoc-gen-go and protoc-gen-go-vtproto (gen.sh), then typegen (typed.go). Everything it
// writes is under the git-ignored gen/, bin/ and typed/ folders.
package gen

//go:generate go build -o ../../bin/ google.golang.org/protobuf/cmd/protoc-gen-go github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto
//go:generate sh gen.sh
