package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/testrun"
)

// inputChanges is testrun.InputChanges for session s, without the files
// whose version is one the remote's default branch wrote since the start
// (remoteVersionHolder): a person's change to the test script on main,
// merged or rebased in, is main's, and the remedy "restore it" would undo
// the person's work (lazy pass 43, HX21: HN27's class in the QA inputs).
func (e *Engine) inputChanges(ctx context.Context, repo Repo, s *Session, line string, direct bool) ([]testrun.InputChange, error) {
	cs, err := testrun.InputChanges(ctx, repo, s.StartCommit, line, direct)
	if err != nil || len(cs) == 0 {
		return cs, err
	}
	h, ok := repo.(remoteVersionHolder)
	if !ok {
		return cs, nil
	}
	remotes := e.remotesAtStartOf(s.ID)(ctx)
	held := map[string]bool{}
	out := cs[:0:0]
	for _, c := range cs {
		p := c.Path()
		v, seen := held[p]
		if !seen {
			if v, err = h.HoldsRemoteVersion(ctx, p, s.StartCommit, remotes); err != nil {
				return nil, err
			}
			held[p] = v
		}
		if !v {
			out = append(out, c)
		}
	}
	return out, nil
}

// qaCommandInputs checks, for a QA phase whose gate runs a configured
// command, what that command reads besides the tests against the start
// commit (issue 25 QA gap 3: verify flagged a session's change to it, the
// local gate said nothing). A weakening fails the gate; an additive change
// is a warning. environ is the environment the gate's command runs with
// (nil: this process's).
func (e *Engine) qaCommandInputs(ctx context.Context, repo Repo, s *Session, p *protocolspec.Phase, environ []string) (*CheckResult, []string, error) {
	if !e.isQAPhase(p) || !e.hasCommand(p) {
		return nil, nil, nil
	}
	var lines []string
	if c, ok := e.Config.Commands[p.ID]; ok {
		lines = append(lines, c)
	}
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckCommand {
			lines = append(lines, c.Arg)
		}
	}
	var weak, noted []string
	for _, l := range lines {
		cs, err := e.inputChanges(ctx, repo, s, l, true)
		if err != nil {
			return nil, nil, fmt.Errorf("compare what the QA command runs with the start commit: %w", err)
		}
		w, n := testrun.SplitChanges(cs)
		weak, noted = append(weak, w...), append(noted, n...)
		if why := e.userNpmrcChange(ctx, s, l); why != "" {
			weak = append(weak, why)
		}
	}
	// The command runs the test files as the session left them: skips it
	// added there make it prove less too (testrun/skips.go), judged by
	// the environment the command gets (the gate's clean one, with what
	// its line sets), not this process's: gateenv drops GOFLAGS and its
	// kin, which a skip condition may read.
	var base testrun.LookupEnv
	if environ != nil {
		base = testrun.EnvOf(environ)
	}
	if len(lines) == 0 {
		lines = []string{""} // the gate's command from elsewhere: its environment alone
	}
	seen := map[string]bool{}
	for _, l := range lines {
		skips, err := testrun.SkipsAddedIn(ctx, repo, s.StartCommit, testrun.RunEnv(base, l))
		if err != nil {
			return nil, nil, fmt.Errorf("compare the test files' skips with the start commit: %w", err)
		}
		for _, sk := range skips {
			if !seen[sk] {
				seen[sk] = true
				weak = append(weak, "the session's change skips tests: "+sk)
			}
		}
	}
	if why, err := weakNewTests(ctx, repo, s); err != nil {
		return nil, nil, err
	} else if why != "" {
		weak = append(weak, why)
	}
	if why, err := outsideLinks(ctx, repo, s); err != nil {
		return nil, nil, err
	} else if why != "" {
		weak = append(weak, why)
	}
	if why, err := outsideConfig(repo, s); err != nil {
		return nil, nil, err
	} else if why != "" {
		weak = append(weak, why)
	}
	var warn []string
	for _, n := range noted {
		warn = append(warn, fmt.Sprintf("%s: what the QA command runs changed in this session: %s; noted, not refused (verify notes it too)", p.ID, n))
	}
	if len(weak) == 0 {
		return nil, warn, nil
	}
	return &CheckResult{Kind: protocolspec.CheckCommand, Arg: "QA command's inputs", Status: StatusFail,
		Message: fmt.Sprintf("%s: what the QA command runs changed in this session so that it proves less: %s: the command passes on less than at the start; restore it (git diff %s), or have a person sign the change (verify fails it otherwise)",
			p.ID, strings.Join(weak, "; "), shortSHA(s.StartCommit))}, warn, nil
}
