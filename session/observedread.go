package session

import (
	"bytes"
	"fmt"
	"github.com/sessiongate/sessiongate/shellline"
	"path"
	"path/filepath"
	"strings"
)

// An observed read meets a content_hash check. The check asks for proof
// that the session read the current version of a file; a `cat FILE` that
// sessiongate saw run (an agent hook, or `sessiongate run`) is that proof
// when its output is the file: the stored sha256 of the output equals the
// file's (or the file's with its final newline dropped or added, as agent
// shells trim output). Only one command with no pipe counts, and output
// sent elsewhere (`> /dev/null`) matches nothing: a read the agent never
// saw is no read. Before, only a recorded content_hash claim did, so an
// honest agent that read the handoff was blocked.

// readPrograms print a file as it is.
var readPrograms = map[string]bool{"cat": true, "bat": true, "batcat": true, "less": true, "more": true}

// observedRead returns the observed run that read rel and saw body, or nil.
func observedRead(env gateEnv, rel string, body []byte) *Evidence {
	sums := map[string]bool{sha256Hex(body): true, sha256Hex(bytes.TrimRight(body, "\n")): true, sha256Hex(append(append([]byte{}, body...), '\n')): true}
	for i := len(env.evidence) - 1; i >= 0; i-- {
		e := &env.evidence[i]
		if !e.Observed() || e.Origin == OriginTranscript || !e.Succeeded() || !sums[e.SHA256] {
			continue
		}
		if readsFile(env.repo.Root(), e.Command, rel) {
			return e
		}
	}
	return nil
}

// readsFile reports whether line is one program of readPrograms given rel
// (relative to the worktree root, or absolute inside it) and nothing else.
func readsFile(root, line, rel string) bool {
	line = shellline.Unwrap(line)
	// `sessiongate run` from a folder of the work tree records its command
	// as `cd DIR && COMMAND` (run.go): COMMAND's relative paths are DIR's
	// (round 56, helper 334: `cat ../.agents/HANDOFF.md` run from src/
	// read the handoff, and the read did not count).
	dir := "."
	if pre, rest, ok := strings.Cut(line, " && "); ok && strings.HasPrefix(pre, "cd ") {
		if cd, _, ok := shellline.Calls(pre); ok && len(cd) == 1 {
			if w := shellline.ExpandedWords(cd[0]); len(w) == 2 && w[0] == "cd" && !path.IsAbs(w[1]) {
				if d := path.Clean(w[1]); d != ".." && !strings.HasPrefix(d, "../") {
					dir, line = d, rest
				}
			}
		}
	}
	calls, _, ok := shellline.Calls(line)
	if !ok || len(calls) != 1 {
		return false
	}
	w := shellline.StripWrappers(shellline.ExpandedWords(calls[0])) // the words the shell runs
	if len(w) < 2 || !readPrograms[path.Base(w[0])] {
		return false
	}
	root = filepath.ToSlash(filepath.Clean(root))
	for _, a := range w[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		p := a
		if path.IsAbs(p) {
			r, ok := strings.CutPrefix(path.Clean(p), root+"/")
			if !ok {
				continue
			}
			p = r
		} else {
			p = path.Join(dir, p)
		}
		if path.Clean(p) == rel {
			return true
		}
	}
	return false
}

func observedReadMsg(e *Evidence, rel string) string {
	return fmt.Sprintf("observed %q read %s as it is now (exit 0, its output is the file)", truncate(e.Command, 80), rel)
}
