package agenttest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/testbin"
	"github.com/sessiongate/sessiongate/internal/testshare"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

// sgBin is the folder holding sessiongate built once for these tests; the
// end-to-end tests put it first on PATH, as a user's install would, since
// agent hook configs call `sessiongate` from PATH.
var sgBin string

func TestMain(m *testing.M) {
	testshare.Apply()
	// A temp folder of the package's own, removed at the end; a leak
	// fails CI (tmpleak).
	os.Exit(tmpleak.Run(func() int { return buildAndRun(m) }))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "sessiongate-agenttest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	sgBin = dir
	if err := testbin.Build(filepath.Join(dir, "sessiongate"), "../../cmd/sessiongate", nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		return 1
	}
	code := m.Run()
	os.RemoveAll(dir)
	return code
}
