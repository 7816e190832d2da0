package gen

// The typed model of every dataset (tools/typegen, into the git-ignored typed/ folder),
// with msgp's methods from the pinned msgp tool, built here and called by path; the user
// fixtures of the unit tests get theirs in typed/fixtures.
//go:generate go build -o ../../bin/ github.com/tinylib/msgp
//go:generate go run ../typegen -out ../../typed -tools ../../bin -fixtures ../../internal/libs/testdata/user
