package mcpserver

import (
	"os"
	"runtime/debug"
)

// Collector settings TuneGC applies to a long-running server.
const (
	ServerGCPercent   = 400
	ServerMemoryLimit = 256 << 20 // soft cap: the collector works harder near it
)

// TuneGC raises the collector's target for `sessiongate serve` and
// `sessiongate mcp` unless GOGC is set in the environment, and caps memory
// softly unless GOMEMLIMIT is. It returns a function that restores the
// previous settings. The MCP SDK allocates about 400 KB of short-lived
// buffers per request (its JSON decoder takes a fresh 32 KiB buffer for each
// of a dozen decodes) while the live heap stays around ten MB, so with the
// default GOGC=100 the collector runs every few requests and costs more CPU
// than a trivial request itself (docs/benchmarks.md). At 400 the heap grows
// to about five times the live data, tens of MB.
func TuneGC() (restore func()) {
	prevGC := debug.SetGCPercent(-1) // read it; set below
	gc := prevGC
	if os.Getenv("GOGC") == "" {
		gc = ServerGCPercent
	}
	debug.SetGCPercent(gc)
	prevLimit := debug.SetMemoryLimit(-1) // negative: read only
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(ServerMemoryLimit)
	}
	return func() {
		debug.SetGCPercent(prevGC)
		debug.SetMemoryLimit(prevLimit)
	}
}
