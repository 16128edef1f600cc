package testrun

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// A QA phase without a command of its own takes a test-suite run
// (shellline.RunsTests), and `make test` or `npm test` is one by its name.
// What it runs is in the repository: a Makefile whose test target is
// `true`, or a package.json whose "test" script is `exit 0` or `echo ok`,
// makes it a run of nothing, and so does a target or script the session
// itself rewrote (compared with the start commit): the agent being policed
// wrote what "the tests" are (issue 25). WeakScript says why such a
// run proves nothing, or "".
// start is the session's starting commit ("" when unborn).
func WeakScript(ctx context.Context, repo Repo, start, line string) (string, error) {
	for _, t := range shellline.ScriptTargets(line) {
		if t.Dir == shellline.UnknownDir {
			// the recipe run cannot be judged: `cd $X && make test` must not
			// pass a `test: true` target unread (it was read at the line's
			// last known folder before)
			return fmt.Sprintf("the %s %q it runs is in a folder the line does not name (cd $VAR, eval, a bare cd): what it runs is not judged", recipeWord(t.Tool), t.Name), nil
		}
		rel, now, err := ScriptFile(repo.Root(), t)
		if boundedread.Refused(err) {
			return rel + ": " + notJudged(err), nil
		}
		if err != nil || rel == "" {
			continue // no such file here: the runner fails on its own
		}
		body, found := ScriptBody(t, now)
		if !found {
			continue
		}
		what := fmt.Sprintf("%s's %q %s", rel, t.Name, recipeWord(t.Tool))
		if TrivialScript(t, now, body, 0) {
			return fmt.Sprintf("%s runs no test (%s)", what, truncate(OneLine(body), 80)), nil
		}
		was := ""
		if start != "" {
			ok, err := repo.ExistsAt(ctx, start, rel)
			if err != nil {
				return "", fmt.Errorf("read %s at the start commit: %w", rel, err)
			}
			if ok {
				b, err := repo.ReadAt(ctx, start, rel)
				if err != nil {
					return "", fmt.Errorf("read %s at the start commit: %w", rel, err)
				}
				was, _ = ScriptBody(t, b)
			}
		}
		if strings.TrimSpace(was) != strings.TrimSpace(body) {
			if was == "" {
				return fmt.Sprintf("%s was added in this session (the start commit has none): the session wrote what its tests are; run the test runner itself (go test, pytest, ...), or have a person set commands.QA_VALIDATION", what), nil
			}
			return fmt.Sprintf("%s changed in this session (was %q, now %q): the session rewrote what its tests are; run the test runner itself, or restore the %s", what, truncate(OneLine(was), 60), truncate(OneLine(body), 60), recipeWord(t.Tool)), nil
		}
	}
	return "", nil
}
