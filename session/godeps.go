package session

import (
	"context"
	"time"

	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/godepchange"
	"github.com/sessiongate/sessiongate/shellline"
)

// goDepsChanged says why a QA line's `go test` would build the tests
// against Go source outside the work tree changed in the session: the
// toolchain's testing package or a module-cache dependency patched to
// pass anything (godepchange; lazy-agent pass 20). "" when the line runs
// no go test, or nothing it compiles changed.
func goDepsChanged(ctx context.Context, root string, env []string, line string, since time.Time) (string, error) {
	runsGo := false
	for _, r := range shellline.TestRuns(line) {
		if r.Runner == "go test" {
			runsGo = true
		}
	}
	if !runsGo {
		return "", nil
	}
	goBin, err := gateenv.LookPath(env, "go")
	if err != nil {
		return "", nil // no go: the run fails by itself
	}
	return godepchange.Changed(ctx, goBin, root, env, since)
}
