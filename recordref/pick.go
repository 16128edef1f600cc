package recordref

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/snapshot"
)

// continuesToken is session.ContinuesToken (the event a session records
// at its start when it continues an ABANDONED one); recordref does not
// import session.
const continuesToken = "session:continues:"

// PickResult says what PushPicked did.
type PickResult struct {
	Sessions []string // the sessions whose files were picked (the named ones and the ones they continue)
	Paths    []string // the files picked, as the source ref holds them
	Left     int      // files of the source ref not picked
	PushResult
}

// ConflictError: a picked file that the remote holds with other bytes.
// The union keeps the larger object id, so pushing would let the source's
// copy replace the remote's record; a person decides instead.
type ConflictError struct {
	Paths []string
	Why   string // "" for a picked file the remote holds with other bytes
}

func (e *ConflictError) Error() string {
	why := e.Why
	if why == "" {
		why = "the records to push change file(s) the remote holds"
	}
	return why + ": " + strings.Join(e.Paths, ", ")
}

// PushPicked pushes to remote only the files of ref that belong to the
// sessions ids (their record, their event pin, the unchecked stops of
// their conversations) and to the sessions those continue, united with the
// remote's records: the remote's new tip holds the remote's files and the
// picked ones, nothing else of ref's tip. Its history keeps every version
// of the picked files (verify reads a record's history: its first start,
// the violations of earlier versions) and the records commits keep names
// (the Session-Pin trailers of the pull request's commits: verify fails a
// commit whose pinned records commit the ref does not hold), which carry
// ref's history up to them; nothing ref gained after them is pushed. fork-records: push ran `records push`, which
// sent the fork's whole records ref: every session the fork ever recorded,
// actor claims and acceptances included, not only the pull request's
// (TestVerifyAdvCIForkRecordsAction). Nothing is pushed when the remote
// already holds every picked file; a picked file the remote holds with
// other bytes is a *ConflictError and nothing is pushed.
func PushPicked(ctx context.Context, dir, remote, ref string, ids, keep []string) (PickResult, error) {
	var res PickResult
	if err := ValidRef(ref); err != nil {
		return res, err
	}
	if remote == "" || strings.HasPrefix(remote, "-") {
		return res, fmt.Errorf("push records: bad remote %q", remote)
	}
	from, err := Tip(ctx, dir, ref)
	if err != nil {
		return res, err
	}
	if from == "" || len(ids) == 0 {
		res.Skipped = true
		return res, nil
	}
	res.Sessions, res.Paths, err = pickPaths(ctx, dir, from, ids)
	if err != nil {
		return res, err
	}
	all, err := git(ctx, dir, nil, nil, "ls-tree", "-r", "--name-only", "-z", from)
	if err != nil {
		return res, fmt.Errorf("list %s: %w", ref, err)
	}
	res.Left = strings.Count(all, "\x00") - len(res.Paths)
	if len(res.Paths) == 0 {
		res.Skipped = true
		return res, nil
	}
	theirs, err := fetch(ctx, dir, remote, ref)
	if err != nil {
		return res, err
	}
	mine, err := blobsAt(ctx, dir, from, res.Paths)
	if err != nil {
		return res, err
	}
	held := map[string]string{}
	if theirs != "" {
		if held, err = blobsAt(ctx, dir, theirs, res.Paths); err != nil {
			return res, err
		}
	}
	var conflicts []string
	same := 0
	for _, p := range res.Paths {
		switch h, ok := held[p]; {
		case !ok:
		case h == mine[p]:
			same++
		default:
			conflicts = append(conflicts, p)
		}
	}
	if len(conflicts) > 0 {
		return res, &ConflictError{Paths: conflicts}
	}
	pinned, err := heldPins(ctx, dir, from, theirs, keep)
	if err != nil {
		return res, err
	}
	if same == len(res.Paths) && len(pinned) == 0 {
		res.Tip = theirs
		return res, nil // the remote holds them all already
	}
	// The pinned commits carry ref's history up to them; verify reads
	// every stop that history ever held (recordref.ReadStops), so a stop
	// of a conversation none of these sessions had, placed there, would
	// fail the commits of the remote's own session bound to it.
	if stray, err := strayStops(ctx, dir, theirs, pinned, res.Paths); err != nil {
		return res, err
	} else if len(stray) > 0 {
		return res, &ConflictError{Paths: stray, Why: "the history the pull request's Session-Pin trailers name adds unchecked stops of conversations its sessions did not have"}
	}
	next, err := pickedCommit(ctx, dir, from, theirs, pinned, res.Paths, mine)
	if err != nil {
		return res, err
	}
	if err := casRef(ctx, dir, ref, next, from); err != nil {
		return res, err
	}
	res.PushResult, err = Push(ctx, dir, remote, ref)
	return res, err
}

// pickPaths lists the files of records commit tip that belong to ids and
// the sessions they continue (transitively), sorted.
func pickPaths(ctx context.Context, dir, tip string, ids []string) (sessions, paths []string, err error) {
	seen := map[string]bool{}
	queue := slices.Clone(ids)
	var prefixes []string
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if seen[id] {
			continue
		}
		seen[id] = true
		rp, err := Path(id)
		if err != nil {
			return nil, nil, err
		}
		pp, _ := PinPath(id)
		prefixes = append(prefixes, rp, pp)
		body, _, err := Read(ctx, dir, tip, id)
		if err != nil || body == nil {
			continue // no record here: nothing of it to push
		}
		var rec snapshot.Record
		if json.Unmarshal(body, &rec) != nil {
			continue
		}
		for _, ev := range rec.Events {
			if next, ok := strings.CutPrefix(ev.Token, continuesToken); ok && idRE().MatchString(next) {
				queue = append(queue, next)
			}
		}
		if rec.Session != nil {
			for _, cv := range rec.Session.Conversations {
				k := StopKey(cv.Agent, cv.ID)
				prefixes = append(prefixes, StopDir+"/"+k[:2]+"/"+k+"/")
			}
		}
	}
	out, err := git(ctx, dir, nil, nil, append([]string{"ls-tree", "-r", "--name-only", "-z", tip, "--"}, prefixes...)...)
	if err != nil {
		return nil, nil, fmt.Errorf("list the picked records at %.12s: %w", tip, err)
	}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	sessions = slices.Sorted(func(yield func(string) bool) {
		for id := range seen {
			if !yield(id) {
				return
			}
		}
	})
	return sessions, paths, nil
}

// blobsAt maps each of paths that commit holds to its blob.
func blobsAt(ctx context.Context, dir, commit string, paths []string) (map[string]string, error) {
	out, err := git(ctx, dir, nil, nil, append([]string{"ls-tree", "-r", "-z", commit, "--"}, paths...)...)
	if err != nil {
		return nil, fmt.Errorf("list %.12s: %w", commit, err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(out, "\x00") {
		meta, name, ok := strings.Cut(line, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 {
			m[name] = f[2]
		}
	}
	return m, nil
}

// pickHistory writes a linear history holding only paths: one commit for
// each commit of from's history that changed one of them (oldest first),
// its tree those paths as that commit held them, its author, committer,
// dates and message kept (the records clock reads commit times).
func pickHistory(ctx context.Context, dir, from string, paths []string) (string, error) {
	out, err := git(ctx, dir, nil, nil, append([]string{"log", "--full-history", "--reverse", "--topo-order",
		"--format=%H%x00%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd%x00%B%x1e", "--date=raw", from, "--"}, paths...)...)
	if err != nil {
		return "", fmt.Errorf("read the history of the picked records: %w", err)
	}
	parent, lastTree := "", ""
	for _, entry := range strings.Split(out, "\x1e") {
		f := strings.SplitN(strings.TrimLeft(entry, "\n"), "\x00", 8)
		if len(f) != 8 {
			continue
		}
		blobs, err := blobsAt(ctx, dir, f[0], paths)
		if err != nil {
			return "", err
		}
		tree, err := setPaths(ctx, dir, "", blobs)
		if err != nil {
			return "", err
		}
		if tree == lastTree {
			continue
		}
		args := []string{"commit-tree", tree}
		if parent != "" {
			args = append(args, "-p", parent)
		}
		env := []string{"GIT_AUTHOR_NAME=" + f[1], "GIT_AUTHOR_EMAIL=" + f[2], "GIT_AUTHOR_DATE=" + f[3],
			"GIT_COMMITTER_NAME=" + f[4], "GIT_COMMITTER_EMAIL=" + f[5], "GIT_COMMITTER_DATE=" + f[6]}
		msg := strings.TrimRight(f[7], "\n")
		if msg == "" {
			msg = "sessiongate records: picked"
		}
		c, err := git(ctx, dir, []byte(msg+"\n"), env, append(args, "-F", "-")...)
		if err != nil {
			return "", fmt.Errorf("write a picked records commit: %w", err)
		}
		parent, lastTree = strings.TrimSpace(c), tree
	}
	if parent == "" {
		return "", fmt.Errorf("the history of %.12s holds none of %s", from, strings.Join(paths, ", "))
	}
	return parent, nil
}

// pickedCommit writes the commit PushPicked pushes: its tree the remote's
// (theirs, "" when the remote has none) with the picked files set, its
// parents the remote's tip, the pinned records commits held (heldPins),
// and the picked history.
func pickedCommit(ctx context.Context, dir, from, theirs string, held, paths []string, blobs map[string]string) (string, error) {
	base, err := treeOf(ctx, dir, theirs)
	if err != nil {
		return "", err
	}
	tree, err := setPaths(ctx, dir, base, blobs)
	if err != nil {
		return "", err
	}
	var parents []string
	if theirs != "" {
		parents = append(parents, theirs)
	}
	parents = append(parents, held...)
	picked, err := pickHistory(ctx, dir, from, paths)
	if err != nil {
		return "", err
	}
	parents = append(parents, picked)
	args := []string{"commit-tree", tree}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	out, err := git(ctx, dir, nil, commitIdentity, append(args, "-m", "sessiongate records: a pull request's sessions")...)
	if err != nil {
		return "", fmt.Errorf("write the picked records commit: %w", err)
	}
	return strings.TrimSpace(out), nil
}

// heldPins returns the records commits of keep that from's history holds
// and the remote's (theirs) does not, the newest of each line.
func heldPins(ctx context.Context, dir, from, theirs string, keep []string) ([]string, error) {
	var held []string
	for _, k := range keep {
		if isHexID(k) && !slices.Contains(held, k) && isAncestor(ctx, dir, k, from) && (theirs == "" || !isAncestor(ctx, dir, k, theirs)) {
			held = append(held, k)
		}
	}
	if len(held) > 1 {
		out, err := git(ctx, dir, nil, nil, append([]string{"merge-base", "--independent"}, held...)...)
		if err != nil {
			return nil, fmt.Errorf("order the pinned records commits: %w", err)
		}
		held = strings.Fields(out)
	}
	return held, nil
}

// strayStops lists the stop files the history of held adds beyond the
// remote's (theirs) that are not among the picked paths.
func strayStops(ctx context.Context, dir, theirs string, held, picked []string) ([]string, error) {
	if len(held) == 0 {
		return nil, nil
	}
	args := append([]string{"log", "--no-merges", "--no-renames", "--format=", "--name-only", "--diff-filter=AM"}, held...)
	if theirs != "" {
		args = append(args, "--not", theirs)
	}
	out, err := git(ctx, dir, nil, nil, append(args, "--", StopDir+"/")...)
	if err != nil {
		return nil, fmt.Errorf("list the stops the pinned records commits add: %w", err)
	}
	var stray []string
	for _, p := range strings.Fields(out) {
		if !slices.Contains(picked, p) && !slices.Contains(picked, strings.TrimSuffix(p, ".folded")+".json") && !slices.Contains(stray, p) {
			stray = append(stray, p)
		}
	}
	if len(stray) == 0 {
		return nil, nil
	}
	// verify applies a stop only to the sessions whose record lists its
	// conversation: a stop of a conversation no record of the remote
	// lists (the contributor's own other session, stopped under load in
	// the same clone) fails none of the remote's sessions, and refusing it
	// left an honest fork's merged pull request failing on main
	// (TestPushPickedForkOwnConversation). Conversation ids are the agent
	// CLI's random ids: a fork cannot aim a stop at one the remote has
	// not published yet.
	theirConvs, err := conversationKeys(ctx, dir, theirs)
	if err != nil {
		return nil, err
	}
	kept := stray[:0]
	for _, p := range stray {
		if theirConvs[stopKeyOfPath(p)] {
			kept = append(kept, p)
		}
	}
	slices.Sort(kept)
	return kept, nil
}

// stopKeyOfPath is the conversation key of a stop path
// (stops/<k[:2]>/<k>/<file>), "" for another path.
func stopKeyOfPath(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) != 4 || parts[0] != StopDir {
		return ""
	}
	return parts[2]
}

// conversationKeys is the set of StopKey of every conversation a record at
// records commit tip lists ("" tip: none).
func conversationKeys(ctx context.Context, dir, tip string) (map[string]bool, error) {
	keys := map[string]bool{}
	if tip == "" {
		return keys, nil
	}
	out, err := git(ctx, dir, nil, nil, "ls-tree", "-r", "-z", tip, "--", Dir+"/")
	if err != nil {
		return nil, fmt.Errorf("list the records at %.12s: %w", tip, err)
	}
	var blobs []string
	for _, line := range strings.Split(out, "\x00") {
		if f := strings.Fields(line); len(f) >= 3 && f[1] == "blob" {
			blobs = append(blobs, f[2])
		}
	}
	if len(blobs) == 0 {
		return keys, nil
	}
	bodies, err := catBatch(ctx, dir, blobs)
	if err != nil {
		return nil, fmt.Errorf("read the records at %.12s: %w", tip, err)
	}
	for _, b := range bodies {
		var rec struct {
			Session *struct {
				Conversations []struct {
					Agent string `json:"agent"`
					ID    string `json:"id"`
				} `json:"conversations"`
			} `json:"session"`
		}
		if json.Unmarshal(b, &rec) != nil || rec.Session == nil {
			continue
		}
		for _, cv := range rec.Session.Conversations {
			keys[StopKey(cv.Agent, cv.ID)] = true
		}
	}
	return keys, nil
}
