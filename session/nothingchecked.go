package session

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/cmdoutput"
)

// nothingCheckedStatus turns "checked nothing" into a gate status: SKIPPED
// with the reason, except that when the tool's own configuration changed
// in this session (an agent adding its files to the ignore list) it is a
// FAIL: the session itself made the check vacuous.
func nothingCheckedStatus(ctx context.Context, env gateEnv, reason, tool string) (GateStatus, string) {
	if tool == "markdownlint-cli2" && env.sess != nil {
		if files, err := sessionFiles(ctx, env.repo, env.workSession()); err == nil {
			for _, f := range files {
				if slices.Contains(cmdoutput.MarkdownlintConfigs, path.Base(f)) {
					return StatusFail, fmt.Sprintf("%s, and %s changed in this session: restore it so the changed files are linted", reason, f)
				}
			}
		}
	}
	if tool == cmdoutput.MakeIdle {
		return StatusFail, reason + ": make the target run its recipe (declare it .PHONY, or move what is named like it)"
	}
	if tool == cmdoutput.TestFilter {
		return StatusFail, reason + ": run the tests without the filter"
	}
	return StatusSkipped, strings.TrimSpace(reason) + ": " + nothingCheckedMark
}
