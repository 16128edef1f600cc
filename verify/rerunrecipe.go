package verify

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// The rerun guard reads a recipe file (Makefile, justfile, Taskfile) the
// base's command runs as the QA gate reads it: testrun.RecipeFileChanges,
// one function for both (round 28 c2 shared the sections; round 29 c2 the
// rest). The target, the targets it depends on and the make variables
// they expand are judged line by line; a line outside every recipe that
// reaches them (SHELL, MAKEFLAGS, include, a just `set`, a Taskfile's
// top-level env), the target dropped from .PHONY, another file the runner
// now reads first and a changed dotenv file the runner loads fail here as
// at the gate. mise and pixi files keep the whole-file rule.

// recipeJudgement is what recipeChanges found in one range.
type recipeJudgement struct {
	weak, noted []weakening
	judged      map[string]bool // recipe files read by sections (the whole-file rule skips them)
}

// recipeChanges judges the recipes the base's rerun commands run.
func (t *protocolTrust) recipeChanges(ctx context.Context, base, tip string, cmds []string, isCode func(string) bool) (recipeJudgement, error) {
	return recipeChangesAt(ctx, t.repo, base, tip, cmds, isCode)
}

func recipeChangesAt(ctx context.Context, repo *gitrepo.Repo, base, tip string, cmds []string, isCode func(string) bool) (recipeJudgement, error) {
	j := recipeJudgement{judged: map[string]bool{}}
	at := func(rev string) testrun.RecipeSide {
		return func(p string) ([]byte, error) {
			b, err := repo.ReadAt(ctx, rev, p)
			if errors.Is(err, gitrepo.ErrNoFile) {
				return nil, nil
			}
			if err != nil {
				return nil, fmt.Errorf("at %s: %w", shortRev(rev), err)
			}
			return b, nil
		}
	}
	tipRead := func(f string) (string, bool) {
		b, err := repo.ReadAt(ctx, tip, f)
		return string(b), err == nil && len(b) <= 256<<10
	}
	seen := map[string]bool{}
	for _, c := range cmds {
		for _, st := range shellline.ScriptTargets(c) {
			if st.Name == "" || seen[st.Tool+"\x00"+st.Dir+"\x00"+st.File+"\x00"+st.Name] {
				continue
			}
			chs, rel, judged, err := testrun.RecipeFileChanges(st, at(base), at(tip), testrun.RecipeJudge{IsCode: isCode, Read: tipRead})
			if err != nil {
				return j, fmt.Errorf("the rerun guard: %w", err)
			}
			if !judged {
				continue // no such target at the base: the whole-file rule
			}
			seen[st.Tool+"\x00"+st.Dir+"\x00"+st.File+"\x00"+st.Name] = true
			j.judged[rel] = true
			if relNow, _, err := testrun.RecipeFile(st, at(tip)); err == nil && relNow != "" {
				j.judged[relNow] = true
			}
			for _, ch := range chs {
				w := weakening{ch.Path(), ch.What()}
				// A section's change is named by its section ("Makefile's
				// "test" target"); the weakening belongs to the recipe file:
				// the dead-test filter and the commit that made it are found
				// by that path (a test line dropped with its deleted test and
				// code was failed, TestFieldHonestGit).
				if p := ch.Path(); p != rel && strings.HasPrefix(p, rel+"'s ") {
					w = weakening{rel, ch.String()}
				}
				if ch.Weakens() {
					j.weak = append(j.weak, w)
				} else {
					j.noted = append(j.noted, w)
				}
			}
		}
	}
	return j, nil
}

func shortRev(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
