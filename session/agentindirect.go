package session

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/writereach"
)

// innerWrites judges the lines a POSIX line runs without naming them as
// its own commands (shellline.Inner: eval's argument, a script piped,
// fed or substituted into a shell or `source`, `sh -c` with its
// positional parameters, the commands xargs builds from its input) as
// the line itself is judged: their literal writes, then writereach.
// Before round 18 only the checks of git hooks and records read them,
// so `eval "sed -i ... SESSION-PROTOCOL.md"` passed the write checks.
func (e *Engine) innerWrites(root string, call ToolCall, inner []string) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	for _, l := range inner {
		ps, ok := shellline.Writes(l)
		if !ok {
			continue
		}
		for i, p := range ps {
			if !filepath.IsAbs(p) {
				ps[i] = filepath.Join(dir, p)
			}
		}
		ws := inWorktree(root, ps)
		if rel := gitDirPath(root, ws); rel != "" {
			return &AgentVerdict{Deny: true, Gate: "git directory",
				Reason: fmt.Sprintf("the shell command runs `%s`, which writes %s: the git directory holds the hooks, the config and sessiongate's records", shortInner(l), rel),
				Next:   "leave it as it is"}
		}
		for _, p := range ws {
			rel, ok := e.ProtectedRel(root, p)
			if !ok && e.ProtectedBelow(p) {
				ok = true
			}
			if ok {
				return &AgentVerdict{Deny: true, Gate: "protected files",
					Reason: fmt.Sprintf("the shell command runs `%s`, which writes %s; it may not change during a session: it decides how the session is policed", shortInner(l), rel),
					Next:   "leave it as it is; a person who wants the change makes it and runs `sessiongate protocol accept`"}
			}
		}
		c := call
		c.Command, c.Paths = l, nil
		if rv := e.shellReach(root, c); rv != nil {
			rv.Reason = "the shell command runs `" + shortInner(l) + "`: " + rv.Reason
			return rv
		}
	}
	return nil
}

// shortInner is an inner line for a message: its first 120 bytes.
func shortInner(l string) string {
	if len(l) > 120 {
		return l[:117] + "..."
	}
	return l
}

// stashShowTime bounds the git call that lists a stash's files.
const stashShowTime = 3 * time.Second

// unpackWrites judges the files a line writes that its words do not name
// but a file does (shellline.Unpacks): an archive's members, a patch's
// files, a stash's files. An archive the line makes itself (members
// unknown) is denied when it is extracted where a protected file or the
// git directory lies; one the hook cannot read otherwise (a download
// piped in, xz) is left open (docs/security.md).
func (e *Engine) unpackWrites(ctx context.Context, root string, call ToolCall) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	us := shellline.Unpacks(call.Command)
	if len(us) == 0 {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	for _, u := range us {
		var paths []string
		what := u.Kind + " " + u.File
		switch u.Kind {
		case "stash":
			paths = stashFiles(ctx, root, u.Ref)
			what = "git stash " + orRef(u.Ref)
		default:
			ps, unknown := writereach.Members(dir, u)
			// Round 19: any archive whose members are unknown (xz, zstd, a
			// download piped in, one not there yet, --transform), not only
			// one the line makes, is denied where a protected file lies; a
			// folder of its own or a temp folder stays allowed.
			if unknown {
				dest := dir
				if u.Dest != "" {
					dest = filepath.Join(dir, u.Dest)
					if filepath.IsAbs(u.Dest) {
						dest = filepath.Clean(u.Dest)
					}
				}
				if r, err := filepath.EvalSymlinks(dest); err == nil && len(inWorktree(root, []string{r})) > 0 {
					dest = r // a link made earlier to the root
				}
				if in := inWorktree(root, []string{dest}); len(in) > 0 && (e.ProtectedBelow(in[0]) || gitDirPath(root, in) != "") {
					return &AgentVerdict{Deny: true, Gate: "protected files",
						Reason: fmt.Sprintf("the shell command extracts an archive whose members the hook cannot read (%s) into %s, which holds protected files: any of them could be overwritten", unknownWhy(u), relOr(root, dest)),
						Next:   "extract it into a folder of its own or a temp folder (`-C build/`, `-C /tmp/x`, `-d build/`) and copy what you need from there"}
				}
			}
			paths = ps
		}
		ws := inWorktree(root, paths)
		if rel := gitDirPath(root, ws); rel != "" {
			return &AgentVerdict{Deny: true, Gate: "git directory",
				Reason: fmt.Sprintf("the shell command's %s writes %s: the git directory holds the hooks, the config and sessiongate's records", what, rel),
				Next:   "leave it as it is"}
		}
		for _, p := range ws {
			if rel, ok := e.ProtectedRel(root, p); ok {
				return &AgentVerdict{Deny: true, Gate: "protected files",
					Reason: fmt.Sprintf("the shell command's %s writes %s; it may not change during a session: it decides how the session is policed", what, rel),
					Next:   "leave it out (exclude it from the archive or the patch), or leave it as it is; a person who wants the change makes it and runs `sessiongate protocol accept`"}
			}
		}
	}
	return nil
}

// unknownWhy says why an archive's members are not known, for a message.
func unknownWhy(u shellline.Unpack) string {
	switch {
	case u.Made:
		return "the line makes it itself"
	case u.File == "":
		return "it comes from standard input"
	case u.Renamed:
		return "tar renames its members"
	}
	return "a compression it cannot open, or a file not there yet"
}

// stashFiles lists the absolute paths a stash holds changes of
// (untracked files too, when git can say), nil when there is no stash.
func stashFiles(ctx context.Context, root, ref string) []string {
	ctx, cancel := context.WithTimeout(ctx, stashShowTime)
	defer cancel()
	ref = orRef(ref)
	out, err := gitenv.Command(ctx, root, nil, "stash", "show", "--include-untracked", "--name-only", ref).Output()
	if err != nil {
		if out, err = gitenv.Command(ctx, root, nil, "stash", "show", "--name-only", ref).Output(); err != nil {
			return nil
		}
	}
	var ps []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			ps = append(ps, filepath.Join(root, filepath.FromSlash(l)))
		}
	}
	return ps
}

func orRef(ref string) string {
	if ref == "" {
		return "stash@{0}"
	}
	return ref
}

// relOr is p relative to root for a message, p when it is not below.
func relOr(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	if filepath.Clean(p) == filepath.Clean(root) {
		return "the work tree's root"
	}
	return p
}
