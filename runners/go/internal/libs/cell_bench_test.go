package libs

import (
	"os"
	"strings"
	"testing"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// BenchmarkCell times one serbench cell with testing.B, for the accuracy comparison
// (bench/compare.py): SERBENCH_CELL=serializer:dataset:operation:data-file. The body is
// the same Cell operation the runner's sample command times.
func BenchmarkCell(b *testing.B) {
	spec := strings.SplitN(os.Getenv("SERBENCH_CELL"), ":", 4)
	if len(spec) != 4 {
		b.Skip("set SERBENCH_CELL=serializer:dataset:operation:data-file")
	}
	d, err := model.Load(spec[1], spec[3])
	if err != nil {
		b.Fatal(err)
	}
	cell, p := harness.Prepare(find(spec[0]), d, d, []string{spec[2]}, "", "")
	if cell == nil {
		b.Fatalf("%s: %s %v", p.Status, p.Detail, p.Err)
	}
	op, err := cell.Op(spec[2])
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
}
