package libs

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"serbench/internal/harness"
	"serbench/internal/model"
)

// The native-harness flags of `serbench calibrate` (docs/runner-protocol.md, section 12):
// bin/libs.test --serializer S --dataset D --dataset-file F --operation OP --iterations N
// --samples K runs BenchmarkCell as -test.benchtime=Nx -test.count=K.
var (
	cellSerializer = flag.String("serializer", "", "serbench cell: serializer")
	cellDataset    = flag.String("dataset", "", "serbench cell: dataset name")
	cellFile       = flag.String("dataset-file", "", "serbench cell: canonical data file")
	cellOperation  = flag.String("operation", "", "serbench cell: encode or decode")
	cellIterations = flag.Int("iterations", 0, "operations per sample (-test.benchtime=Nx)")
	cellSamples    = flag.Int("samples", 1, "samples (-test.count)")
	cellWarmupMS   = flag.Float64("warmup-ms", 0, "untimed operations before the first sample")
	// testing.B's batch is --iterations; the sample length serbench aimed at is not needed
	_ = flag.Float64("sample-ms", 0, "unused")
)

func TestMain(m *testing.M) {
	flag.Parse()
	if *cellSerializer != "" {
		if *cellIterations < 1 {
			fmt.Fprintln(os.Stderr, "--iterations must be at least 1")
			os.Exit(2)
		}
		for name, value := range map[string]string{
			"test.run":       "^$",
			"test.bench":     "^BenchmarkCell$",
			"test.benchtime": strconv.Itoa(*cellIterations) + "x",
			"test.count":     strconv.Itoa(*cellSamples),
		} {
			if err := flag.Set(name, value); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
	}
	os.Exit(m.Run())
}

// benchOp is the prepared operation of the cell, kept across testing.B's repetitions (as
// the runner keeps a prepared cell across samples): each repetition then starts from the
// same live heap instead of re-loading the data after testing.B's runtime.GC().
var benchOp func() error

// sample is one line of the native-harness contract.
type sample struct {
	WallNs     int64  `json:"wall_ns"`
	CPUNs      int64  `json:"cpu_ns"`
	Iterations int    `json:"iterations"`
	AllocBytes uint64 `json:"alloc_bytes"`
	Allocs     uint64 `json:"allocs"`
	GCs        uint32 `json:"gc_count"`
}

// BenchmarkCell times one serbench cell with plain testing.B (runtime.GC() before each
// repetition, timer started right after it): the same Cell operation the runner's sample
// command times.
func BenchmarkCell(b *testing.B) {
	if *cellSerializer == "" {
		b.Skip("run with --serializer, --dataset, --dataset-file and --operation")
	}
	if benchOp == nil {
		prepare(b)
	}
	// as in the runner: the goroutine stays on one OS thread, whose CPU clock is read
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	op := benchOp
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
	if b.N == *cellIterations { // not testing.B's one-operation probe run
		line, _ := json.Marshal(sample{
			b.Elapsed().Nanoseconds(), c1 - c0, b.N,
			m1.TotalAlloc - m0.TotalAlloc, m1.Mallocs - m0.Mallocs, m1.NumGC - m0.NumGC,
		})
		// testing.B has printed the benchmark's name without a newline
		fmt.Printf("\n%s\n", line)
	}
}

// prepare loads and checks the cell, then runs it untimed for --warmup-ms.
func prepare(b *testing.B) {
	d, err := model.Load(*cellDataset, *cellFile)
	if err != nil {
		b.Fatal(err)
	}
	cell, p := harness.Prepare(find(*cellSerializer), d, d, []string{*cellOperation}, "", "")
	if cell == nil {
		b.Fatalf("%s: %s %v", p.Status, p.Detail, p.Err)
	}
	if benchOp, err = cell.Op(*cellOperation); err != nil {
		b.Fatal(err)
	}
	warm := time.Duration(*cellWarmupMS * float64(time.Millisecond))
	for start := time.Now(); time.Since(start) < warm; {
		if err := benchOp(); err != nil {
			b.Fatal(err)
		}
	}
}
