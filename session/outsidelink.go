package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/outsideconfig"
	"github.com/sessiongate/sessiongate/outsidelink"
)

// outsideLinks says why a passing test run is no QA because it read,
// through a tracked link, a file outside the repository that the session
// changed (or a link it made or re-pointed there): git holds the link's
// text, so that work is in no commit (outsidelink); "" when none did.
func outsideLinks(ctx context.Context, repo Repo, s *Session) (string, error) {
	cs, err := outsidelink.Changed(ctx, repo.Root(), s.CreatedAt)
	if err != nil {
		return "", fmt.Errorf("check the tracked links that lead out of the repository: %w", err)
	}
	if len(cs) == 0 {
		return "", nil
	}
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.String())
	}
	return fmt.Sprintf("the tests read through a tracked link what git does not hold, changed in this session (%s): the commit has none of that work; make the change in the repository (copy the file in), or have a person restore the link's target", truncate(strings.Join(parts, "; "), 300)), nil
}

// outsideConfig says why a passing test run is no QA because pytest, run
// in the work tree, reads a config or conftest.py above the repository
// made or changed in this session (`../pytest.ini` with `addopts = -k
// "not test_greet"`): not in git, and the project's files unchanged
// (outsideconfig); "" when none was.
func outsideConfig(repo Repo, s *Session) (string, error) {
	files, err := outsideconfig.Pytest(repo.Root(), s.CreatedAt)
	if err != nil {
		return "", fmt.Errorf("check pytest's files above the repository: %w", err)
	}
	if len(files) == 0 {
		// go's go.work, mocha's .mocharc, jest's config (round 19)
		others, err := outsideconfig.Runners(repo.Root(), s.CreatedAt)
		if err != nil {
			return "", fmt.Errorf("check go, mocha and jest config above the repository: %w", err)
		}
		if len(others) == 0 {
			return "", nil
		}
		return fmt.Sprintf("the test runner reads %s, above the repository and changed in this session: it decides what is built or which tests run and git does not hold it; remove it, or put the config in the repository", truncate(strings.Join(others, ", "), 300)), nil
	}
	return fmt.Sprintf("pytest reads %s, above the repository and changed in this session: it decides which tests run and git does not hold it; remove it, or put the config in the repository", truncate(strings.Join(files, ", "), 300)), nil
}
