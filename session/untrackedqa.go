package session

import (
	"context"
	"fmt"
	"slices"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/testrun"
)

// QA is judged on the committed tree. An untracked zz_test.go with
// `func TestMain(m *testing.M) { os.Exit(0) }`, or an untracked
// conftest.py that skips every test, makes `go test ./...` or pytest pass
// in the work tree while the committed tree fails (issue 25.7 route 3).
// A QA gate's command, and an observed run for a QA phase, therefore look
// at the untracked files git does not ignore (UntrackedLister) before
// they count: one that the run's runner reads (testrun.RunnerReads) and that is
// not in the committed tree makes the run no QA of the committed work,
// and the files are named. Scratch files a runner does not read (notes.txt,
// a log, a .md) are left alone.

// UntrackedLister lists untracked, not-ignored files (testrun's).
type UntrackedLister = testrun.UntrackedLister

// untrackedRead lists the untracked, not-ignored files of repo that the
// runners of line read (testrun.UntrackedRead).
//
// Ignored files made since the start that the run reads as its input
// (testrun.IgnoredStubs: a stub in build/ that the change newly sources, a
// conftest.py an exclude written before the start hides) are named too:
// no tree git makes holds them (round 27, c7).
func untrackedRead(ctx context.Context, repo Repo, s *Session, line string) ([]string, error) {
	files, err := testrun.UntrackedRead(ctx, repo, s.CreatedAt, line)
	if err != nil {
		return nil, err
	}
	stubs, err := testrun.IgnoredStubs(ctx, repo, s.CreatedAt, s.StartCommit, line)
	if err != nil {
		return nil, fmt.Errorf("list ignored files the run reads: %w", err)
	}
	for _, f := range stubs {
		if !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return files, nil
}

// qaPhase is a phase that runs the tests: QA by name, or one whose
// command sessiongate.yaml sets (Engine.isQAPhase, for a gate's config).
func qaPhase(p *protocolspec.Phase, cfg Config) bool {
	if _, ok := cfg.Commands[p.ID]; ok {
		return true
	}
	return isQA(p)
}

// untrackedMsg says why a run that saw files is no QA of the committed work.
func untrackedMsg(files []string) string {
	return fmt.Sprintf("the work tree has untracked files the run reads, which the committed tree does not have (%s): this is no QA of the committed work; stage them (git add: the run then sees them, and the end checks the commit holds what it saw) or commit them, delete them, or ignore them in a committed .gitignore, then run it again", shorten.List(files, 5))
}
