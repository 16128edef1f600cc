package transcript

import (
	"context"
	"maps"
	"os"
	"sort"
	"strings"
	"time"
)

// A transcript written after the call returned. Copilot CLI 1.0.102 writes
// a shell call's tool.execution_complete a moment after the call returns
// and its postToolUse hook has run (Gemini CLI alike), so a reader that
// comes right after the call may miss the line. The engine counts the
// finished shell lines a transcript shows (CountRuns, into State.Runs),
// compares them with the runs the post-tool hook saw finish, and, when the
// transcript is behind, waits for it with CatchUp
// (session/transcript_catchup.go decides how long and records why).

// Lagging reports whether format's shell lines are compared with the runs
// their post-tool hook saw finish: their hooks carry the exit status and
// command line but no call id a line could be matched by.
func Lagging(format string) bool { return format == Gemini || format == Copilot }

// RunKey is what a finished shell line is counted under in State.Runs:
// the digest of its trimmed command line, as the post-tool hook's observed
// evidence keeps it.
func RunKey(command string) string { return CommandDigest(strings.TrimSpace(command)) }

// CountRuns adds the finished shell lines among calls to st.Runs (the
// shell read Expand adds is not another run). The map is cloned before the
// first change: a State read before shares it and stays as it was.
func CountRuns(st *State, calls []Call) {
	cloned := false
	for _, c := range calls {
		if c.Kind != Run || strings.TrimSpace(c.Command) == "" {
			continue
		}
		if !cloned {
			st.Runs, cloned = maps.Clone(st.Runs), true
			if st.Runs == nil {
				st.Runs = map[string]int{}
			}
		}
		st.Runs[RunKey(c.Command)]++
	}
}

// Behind lists, sorted, the keys of want (runs seen finish, by RunKey)
// that st shows fewer times than want says.
func Behind(want map[string]int, st State) []string {
	var out []string
	for k, n := range want {
		if n > st.Runs[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// CatchUpPoll is how often CatchUp looks at a lagging transcript's size.
const CatchUpPoll = 20 * time.Millisecond

// CatchUp reads the transcript at path on from st, whenever its size or
// modification time changes, until it shows every run of want, the
// deadline passes or ctx is done. It returns the calls it read (with their
// runs counted into the state), the state, and the keys still behind. A
// read error stops it: the next reader reads again and says what is wrong.
func CatchUp(ctx context.Context, path, format string, st State, want map[string]int, deadline time.Time) ([]Call, State, []string) {
	var calls []Call
	behind := Behind(want, st)
	// What the caller's read saw is unknown (the file may have grown
	// since): the first look reads again whatever it finds.
	size, mtime := int64(-2), time.Time{}
	for len(behind) > 0 && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			deadline = time.Now()
			continue
		case <-time.After(min(CatchUpPoll, time.Until(deadline))):
		}
		sz, mt := statOf(path)
		if sz == size && mt.Equal(mtime) {
			continue
		}
		size, mtime = sz, mt
		more, next, err := Tail(ctx, path, format, st, 0)
		if err != nil {
			break
		}
		CountRuns(&next, more)
		calls, st = append(calls, more...), next
		behind = Behind(want, st)
	}
	return calls, st, behind
}

// statOf is a file's size and modification time (-1 and zero when it
// cannot be read).
func statOf(path string) (int64, time.Time) {
	fi, err := os.Lstat(path)
	if err != nil {
		return -1, time.Time{}
	}
	return fi.Size(), fi.ModTime()
}
