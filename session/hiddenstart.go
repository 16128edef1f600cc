package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// A developer's own flag: a local config file marked assume-unchanged (or
// skip-worktree) before the session, edited for the developer's machine,
// is a file git hides (HiddenFiles), and a test run while working then
// recorded no tree and could not answer QA though the session never
// touched it (round 26 c9's open row; round 27, c7,
// TestDeveloperFlagBeforeStart27). The start records such files with a
// hash of their work-tree content; a run later leaves one out while its
// content is the same. The agent cannot set a flag before its own session
// starts, and a file it edits no longer matches.

// maxHiddenAtStart bounds the files the start records.
const maxHiddenAtStart = 64

// hiddenAtStart lists the files an update-index flag hides at the start,
// each with the sha256 of its work-tree content; nil when none (or too many).
func hiddenAtStart(ctx context.Context, repo Repo) map[string]string {
	hidden, err := repo.HiddenFiles(ctx)
	if err != nil || len(hidden) == 0 || len(hidden) > maxHiddenAtStart {
		return nil
	}
	out := map[string]string{}
	for p, how := range hidden {
		if !strings.Contains(how, "(git update-index)") {
			continue // a clean filter: judged at each run
		}
		if h := fileSHA(repo.Root(), p); h != "" {
			out[p] = h
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// fileSHA is the sha256 of a work-tree file's bytes, "" when unreadable.
func fileSHA(root, p string) string {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// readHiddenAtStart is what the session's start recorded (hiddenAtStart).
func (e *Engine) readHiddenAtStart(ctx context.Context, id string) map[string]string {
	evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
	if err != nil || len(evs) == 0 {
		return nil
	}
	var d struct {
		Hidden map[string]string `json:"hidden_at_start"`
	}
	if json.Unmarshal([]byte(evs[0].Detail), &d) != nil {
		return nil
	}
	return d.Hidden
}

// excludeLiner is a Repo that reads its exclude files' patterns
// (gitrepo.Repo.ExcludeLines).
type excludeLiner interface {
	ExcludeLines(ctx context.Context) []string
}

// excludesAtStart is the patterns of the per-clone and per-user exclude
// files at the start: clean_worktree counts an untracked file hidden only
// by a line added since (review 28, c9: a person's `*.log` hid the app's
// log, and a line the developer added from another worktree made it count).
func excludesAtStart(ctx context.Context, repo Repo) []string {
	if el, ok := repo.(excludeLiner); ok {
		return el.ExcludeLines(ctx)
	}
	return nil
}

// startHiddenOf reads what the session's start recorded of the files git
// hides (gateEnv.atStart): the developer's flagged files and the exclude
// patterns. A start recorded before excludes_at_start existed gives nil
// patterns: every exclude counts, as before.
func (e *Engine) startHiddenOf(id string) func(ctx context.Context) (map[string]string, []string) {
	return func(ctx context.Context) (map[string]string, []string) {
		evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
		if err != nil || len(evs) == 0 {
			return nil, nil
		}
		var d struct {
			Hidden   map[string]string `json:"hidden_at_start"`
			Excludes []string          `json:"excludes_at_start"`
		}
		if json.Unmarshal([]byte(evs[0].Detail), &d) != nil {
			return nil, nil
		}
		return d.Hidden, d.Excludes
	}
}
