// Command serbench-go is serbench's Go runner (docs/runner-protocol.md, protocol v2).
package main

import (
	"runtime"

	"serbench/internal/harness"
	"serbench/internal/libs"
)

func init() {
	// The measuring goroutine (main) stays on one OS thread, so the thread CPU clock
	// read at sample boundaries is its own.
	runtime.LockOSThread()
}

func main() { harness.Main("go", libs.All) }
