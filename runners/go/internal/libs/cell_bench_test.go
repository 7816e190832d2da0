package libs

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// benchOp is the prepared operation of SERBENCH_CELL, kept across testing.B's repetitions
// (as the runner keeps a prepared cell across samples): each repetition then starts from
// the same live heap instead of re-loading the data after testing.B's runtime.GC().
var benchOp func() error

// BenchmarkCell times one serbench cell with testing.B, for the accuracy comparison
// (bench/compare.py): SERBENCH_CELL=serializer:dataset:operation:data-file. The body is
// the same Cell operation the runner's sample command times. SERBENCH_WARM=n runs at
// least n operations and two GC cycles after testing.B's per-repetition runtime.GC() and
// before the timer starts, so that timing starts in the collector's steady state, as
// serbench's samples do.
func BenchmarkCell(b *testing.B) {
	spec := strings.SplitN(os.Getenv("SERBENCH_CELL"), ":", 4)
	if len(spec) != 4 {
		b.Skip("set SERBENCH_CELL=serializer:dataset:operation:data-file")
	}
	if benchOp == nil {
		d, err := model.Load(spec[1], spec[3])
		if err != nil {
			b.Fatal(err)
		}
		cell, p := harness.Prepare(find(spec[0]), d, d, []string{spec[2]}, "", "")
		if cell == nil {
			b.Fatalf("%s: %s %v", p.Status, p.Detail, p.Err)
		}
		if benchOp, err = cell.Op(spec[2]); err != nil {
			b.Fatal(err)
		}
	}
	// as in the runner: the goroutine stays on one OS thread, whose CPU clock is read
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	op := benchOp
	// warm-up: at least n operations and two completed GC cycles, so that the heap is
	// back at its steady-state size (pages faulted in, reused) when timing starts
	warm, _ := strconv.Atoi(os.Getenv("SERBENCH_WARM"))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gc0 := ms.NumGC
	for i := 0; warm > 0 && (i < warm || ms.NumGC < gc0+2) && i < 1000*warm; i++ {
		if err := op(); err != nil {
			b.Fatal(err)
		}
		if i >= warm {
			runtime.ReadMemStats(&ms)
		}
	}
	b.ReportAllocs()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	b.ResetTimer()
	c0 := harness.ThreadCPU()
	for i := 0; i < b.N; i++ {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	c1 := harness.ThreadCPU()
	b.StopTimer()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(m1.NumGC-m0.NumGC)/float64(b.N), "gc/op")
	b.ReportMetric(float64(m1.HeapAlloc)/float64(1<<20), "heap-MiB-at-end")
}
