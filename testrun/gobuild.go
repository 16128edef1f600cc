package testrun

import (
	"bytes"
	"go/build"
	"io"
	"path"
	"runtime"
)

// GoCollects reports whether `go test` on this machine builds the Go test
// file rel (its content b): not when its name starts with `_` or `.`, its
// _GOOS/_GOARCH suffix names another platform, or its build constraint
// (`//go:build ignore`, `//go:build windows`) is not met. Round 15: a
// failing test renamed to `_greet_test.go` or `greet_windows_test.go`, or
// moved into a new file behind `//go:build ignore`, was read as moved
// there, and `go test ./...` passed without it. The platform is the one
// sessiongate runs on (the gates' `go test` builds for it), never the
// caller's GOOS/GOARCH: an agent's `GOOS=windows sessiongate session
// advance` must not make Windows files count.
func GoCollects(rel string, b []byte) bool {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH = runtime.GOOS, runtime.GOARCH
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	ok, err := ctx.MatchFile(path.Dir(rel), path.Base(rel))
	// A header go/build cannot parse is one go test fails on: collected,
	// so its failure is the run's, not a lost test.
	return ok || err != nil
}
