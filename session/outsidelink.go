package session

import (
	"context"
	"fmt"
	"strings"

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
