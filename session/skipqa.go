package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/testrun"
)

// weakNewTests says why a passing test run is no QA because the only
// tests the session added for its change check nothing about the code
// (testrun/weaktests.go), "" when that is not so.
func weakNewTests(ctx context.Context, repo Repo, s *Session) (string, error) {
	weak, err := testrun.WeakNewTests(ctx, repo, s.StartCommit)
	if err != nil {
		return "", fmt.Errorf("read the tests the session added: %w", err)
	}
	if len(weak) == 0 {
		return "", nil
	}
	return fmt.Sprintf("the tests the session added check nothing about the code (%s): a test that passes whatever the code does is no QA; assert on what the changed code returns or prints", truncate(strings.Join(weak, "; "), 300)), nil
}
