package harness

import (
	"runtime"
	"runtime/debug"
	"time"

	"golang.org/x/sys/unix"
)

// Samples is the sample reply's payload.
type Samples struct {
	Wall, CPU, AllocBytes, AllocCount, GCCount, GCPause []int64
}

func ThreadCPU() int64 {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return ts.Nano()
}

// Run takes `samples` consecutive samples of `iterations` calls of op, after `untimed`
// calls that are not timed. Clocks and memory statistics are read at batch boundaries
// only; the caller's goroutine is locked to its OS thread (main locks it at start-up), so
// the thread CPU clock is this goroutine's.
func Run(op func() error, iterations, samples, untimed int) (s Samples, err error) {
	var m0, m1 runtime.MemStats
	s = Samples{
		Wall: make([]int64, samples), CPU: make([]int64, samples),
		AllocBytes: make([]int64, samples), AllocCount: make([]int64, samples),
		GCCount: make([]int64, samples), GCPause: make([]int64, samples),
	}
	for i := 0; i < untimed; i++ {
		if err = op(); err != nil {
			return s, err
		}
	}
	for k := 0; k < samples; k++ {
		runtime.ReadMemStats(&m0)
		c0 := ThreadCPU()
		w0 := time.Now()
		for i := 0; i < iterations; i++ {
			if err = op(); err != nil {
				return s, err
			}
		}
		wall := time.Since(w0)
		c1 := ThreadCPU()
		runtime.ReadMemStats(&m1)
		s.Wall[k] = max(int64(wall), 1)
		s.CPU[k] = c1 - c0
		s.AllocBytes[k] = int64(m1.TotalAlloc - m0.TotalAlloc)
		s.AllocCount[k] = int64(m1.Mallocs - m0.Mallocs)
		s.GCCount[k] = int64(m1.NumGC - m0.NumGC)
		s.GCPause[k] = int64(m1.PauseTotalNs - m0.PauseTotalNs)
	}
	return s, nil
}

// PeakAlloc runs op once with the collector off and returns the heap growth it caused:
// with nothing collected, that is every byte the operation allocated, an upper bound
// of its peak live heap.
func PeakAlloc(op func() error) (int64, error) {
	runtime.GC()
	old := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(old)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	err := op()
	runtime.ReadMemStats(&m1)
	return int64(m1.HeapAlloc) - int64(m0.HeapAlloc), err
}
