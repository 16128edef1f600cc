package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// GitLab's "rebase, then fast-forward" rewrites a merge request's commits
// and moves its head to them, and a squash fast-forwarded lands one commit
// with no trailer and no merge commit naming the request: CI's clone holds
// no original, and verify failed honest work ("trailers copied", "no
// Session-Id trailer"). The post-commit hook records, for each commit the
// session's pre-commit passed (never a replay or a hooks-off commit), its
// change fingerprint: per path, modes and blob ids before and after
// (gitrepo/changeprint.go), in the snapshots the trailers bind. Here:
//
//   - a commit C naming session s that s never recorded is a REWRITE of
//     recorded commit X when C's fingerprint equals X's (same paths, each
//     with the same blobs before and after: the same hunk at another spot
//     makes other blobs), X's original is reachable from no ref nor the
//     tip (an original still there was not rewritten: a copy of it, as a
//     revert re-applied with the hooks off, is new work), X vouches for no
//     other C, and s's rewrites come in s's recorded order; the rewrite of
//     s's end commit stands in for it (claims.go) only when every commit
//     of s's run from its start to its end lands: its original in the
//     tip's history, or rewritten here (a commit dropped by `git rebase
//     --onto` after the end fails it);
//   - a commit without a trailer is a SQUASH of session s when s's
//     recorded commits, from its first to its end commit, were all gated
//     (every one has a fingerprint: a recorded replay or cherry-pick has
//     none, a BYPASS fails it), chain (each path's blob before is the one
//     the run left), and together make exactly the squash's fingerprint,
//     and none of their originals is reachable; it is then judged as a
//     commit of s under its final snapshot.
//
// Equal blobs before are required: a rebase onto a base that changed a
// file the session's commits change makes other blobs and fails closed (a
// false block that stays: use a merge commit method there). Records
// without fingerprints keep failing closed.

// maxRewriteRange bounds the range whose fingerprints are taken.
const maxRewriteRange = 1000

// recorded is one commit a session recorded.
type recorded struct {
	h      string // sha256 of the commit id
	parent string // sha256 of its first parent's id ("-" a root), "" unknown
	change string // its change fingerprint, "" when not gated or older
}

// carried: a carried copy (session.CarriedChangeMark), or a replay.
func (r recorded) carried() bool {
	return r.change == "" || strings.HasPrefix(r.change, session.CarriedChangeMark+"\n")
}

// newRecorded splits a recorded fingerprint's parent line off.
func newRecorded(h, change string) recorded {
	r := recorded{h: h}
	// A replay's is the parent line alone: a place in the run, no change.
	if first, rest, _ := strings.Cut(change, "\n"); strings.HasPrefix(first, "parent ") {
		r.parent, r.change = strings.TrimPrefix(first, "parent "), rest
	}
	return r
}

// chain returns the session's recorded run in order: from the commit whose
// parent is the start commit to the end commit, each the parent of the
// next (the order the record's evidence, sorted by hash, does not keep).
// ok is false when the end commit's parents do not lead back to the start
// through recorded commits: a hooks-off or unrecorded commit in between.
func (rc *recordCheck) chain() (run []recorded, ok bool) {
	if rc.start == "" || rc.end == "" {
		return nil, false
	}
	byH := make(map[string]recorded, len(rc.recorded))
	for _, r := range rc.recorded {
		byH[r.h] = r
	}
	start := sumHex(rc.start)
	for cur := sumHex(rc.end); len(run) <= len(rc.recorded); {
		r, found := byH[cur]
		if !found && len(run) > 0 && run[len(run)-1].carried() && run[len(run)-1].parent != "" {
			// The run begins at a replay whose parent the session never
			// recorded: the whole copy a rebase inside the session made
			// of the branch's earlier commits (session.carriedEarlier,
			// round 61), onto a base that is not the start. It vouches
			// for nothing (no change), nor makes a squash sound
			// (runPrint), but the gated commits above it are the run
			// (helper 354: rebased again by a third session, the second
			// session's commits failed as "trailers copied").
			slices.Reverse(run)
			return run, true
		}
		if !found || r.parent == "" {
			return nil, false
		}
		run = append(run, r)
		if r.parent == start {
			slices.Reverse(run)
			return run, true
		}
		cur = r.parent
	}
	return nil, false
}

// rewrites judges a range's rewritten commits, once per session.
type rewrites struct {
	repo    *gitrepo.Repo
	tip     string
	commits []gitrepo.Commit // the range, oldest first
	prints  map[string]string
	reach   map[string]bool // sha256 of every commit reachable from a ref or the tip
	tipHist map[string]bool // sha256 of every commit in the tip's history
	judged  map[string]bool // session ids
	ok      map[string]string
	why     map[string]string
	endOf   map[string]string // session id -> the commit standing in for its end commit
	endHash map[string]string // session id -> sha256 of the end commit endOf stands in for
	squash  map[string]string // commit -> session id it is a squash of
	// vouched: sessions whose recorded commits vouched for a rewrite or a
	// squash in this range; none vouches twice.
	vouched map[string]bool
}

func newRewrites(repo *gitrepo.Repo, tip string, commits []gitrepo.Commit) *rewrites {
	rw := &rewrites{repo: repo, tip: tip, judged: map[string]bool{}, ok: map[string]string{}, why: map[string]string{},
		endOf: map[string]string{}, endHash: map[string]string{}, squash: map[string]string{}, vouched: map[string]bool{}}
	rw.commits = commits // oldest first (git log --reverse)
	return rw
}

func sumHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// fingerprints returns the range's change fingerprints (one git process).
func (rw *rewrites) fingerprints(ctx context.Context) map[string]string {
	if rw.prints == nil {
		rw.prints = map[string]string{}
		if len(rw.commits) <= maxRewriteRange {
			var shas []string
			for _, c := range rw.commits {
				shas = append(shas, c.SHA)
			}
			if p, err := rw.repo.ChangePrints(ctx, shas); err == nil {
				rw.prints = p
			}
		}
	}
	return rw.prints
}

// reachable reports whether a commit whose id hashes to h is reachable
// from a ref of this clone or the tip: such an original was not rewritten.
func (rw *rewrites) reachable(ctx context.Context, h string) bool {
	if rw.reach == nil {
		rw.reach = map[string]bool{}
		l, err := rw.repo.RevList(ctx, []string{"--all", rw.tip})
		if err != nil {
			// Not knowing means not passing: every original counts as there.
			return true
		}
		for _, c := range l {
			rw.reach[sumHex(c)] = true
		}
	}
	return rw.reach[h]
}

// judge decides, once for session id, which commits of the range that
// name it and that it never recorded are rewrites of its recorded ones.
func (rw *rewrites) judge(ctx context.Context, id string, rc *recordCheck) {
	if rw == nil || rw.judged[id] || rc == nil || rc.ids == nil {
		return
	}
	rw.judged[id] = true
	var cands []string
	for _, c := range rw.commits {
		if v := c.Trailers[TrailerSession]; len(v) > 0 && v[len(v)-1] == id && !rc.commits[sumHex(c.SHA)] {
			cands = append(cands, c.SHA)
		}
	}
	if len(cands) == 0 {
		return
	}
	run, ok := rc.chain()
	if !ok {
		return // a record from before fingerprints, or no run: today's verdict
	}
	prints := rw.fingerprints(ctx)
	last := -1
	vouchedAt := map[int]bool{} // the run's places a rewrite vouched for
	for _, c := range cands {
		p := prints[c]
		if p == "" {
			rw.why[c] = "it changes nothing, or its change could not be read: no recorded change to match"
			continue
		}
		i := slices.IndexFunc(run, func(r recorded) bool { return r.change == p })
		if i < 0 {
			rw.why[c] = fmt.Sprintf("no commit session %s recorded through its pre-commit has this change (the same paths with the same blobs before and after): not a rewrite of its work, or a rewrite that changed it "+
				"(a rebase after the session ended onto a base that changed the same files is one: put the session's commits back and merge the base in a session instead, docs/policy.md)", id)
			continue
		}
		// The first match after the last rewrite: the recorded order.
		j := slices.IndexFunc(run[last+1:], func(r recorded) bool { return r.change == p })
		if j < 0 {
			rw.why[c] = fmt.Sprintf("its change is that of a commit session %s recorded, but out of the session's recorded order (or that commit already vouched for an earlier one)", id)
			continue
		}
		x := run[last+1+j]
		if rw.reachable(ctx, x.h) {
			rw.why[c] = fmt.Sprintf("its change is that of a commit session %s recorded (sha256 %s), whose original is still in this history: a copy of a commit that was not rewritten is new work", id, shorten.SHA(x.h))
			continue
		}
		if h, why := rw.landed(ctx, c, p, id); h != "" {
			rw.why[c] = fmt.Sprintf("its change is that of a commit session %s recorded (sha256 %s), but %s: a recorded commit vouches for one copy", id, shorten.SHA(x.h), why)
			continue
		}
		last += 1 + j
		vouchedAt[last] = true
		rw.vouched[id] = true
		rw.ok[c] = fmt.Sprintf("a rewrite of checked work (such as GitLab's rebase before a fast-forward): the same paths with the same blobs before and after as a commit session %s recorded through its pre-commit (sha256 %s), whose original is not in this history", id, shorten.SHA(x.h))
		if rc.end != "" && x.h == sumHex(rc.end) {
			rw.endOf[id] = c
			rw.endHash[id] = x.h
		}
	}
	// Only the last rewrite stands in for the end commit.
	if e, ok := rw.endOf[id]; ok && e != cands[len(cands)-1] && rw.ok[cands[len(cands)-1]] != "" {
		delete(rw.endOf, id)
	}
	// The stand-in vouches for the run the session ended on only when
	// every commit of that run lands: its original in the tip's history,
	// or a rewrite here. Lazy pass 41 (L16): the session's fix B dropped
	// by a rebase after the end (`rebase --onto A B`), the handoff H
	// re-made on the broken A; H's rewrite stood in for the end commit and
	// A passed as recorded, so the broken code landed clean.
	if e, ok := rw.endOf[id]; ok {
		for i, r := range run {
			if vouchedAt[i] || rw.inTip(ctx, r.h) {
				continue
			}
			if p, ok := strings.CutPrefix(r.change, session.CarriedChangeMark+"\n"); ok && rw.printInRange(ctx, p) {
				continue // a carried copy, copied again: its copy is judged on its own trailer
			}
			delete(rw.endOf, id)
			delete(rw.ok, e)
			rw.why[e] = fmt.Sprintf("its change is that of session %s's end commit, but commit %d of the %d the session recorded from its start to its end (sha256 %s) is neither in this history nor rewritten here: the run lands without it (a commit dropped after the session, as by `git rebase --onto`)", id, i+1, len(run), shorten.SHA(r.h))
			break
		}
	}
}

// inTip reports whether a commit whose id hashes to h is in the tip's
// history (one git process, read once).
func (rw *rewrites) inTip(ctx context.Context, h string) bool {
	if rw.tipHist == nil {
		rw.tipHist = map[string]bool{}
		l, err := rw.repo.RevList(ctx, []string{rw.tip})
		if err != nil {
			return false // not knowing means not passing
		}
		for _, c := range l {
			rw.tipHist[sumHex(c)] = true
		}
	}
	return rw.tipHist[h]
}

// passes reports whether commit sha of session id, which the session never
// recorded, is its rewrite or squash; why says why not ("" when it is no
// candidate at all).
func (rw *rewrites) passes(sha, id string) (note, why string) {
	if rw == nil {
		return "", ""
	}
	if s, ok := rw.squash[sha]; ok && s == id {
		return rw.ok[sha], ""
	}
	return rw.ok[sha], rw.why[sha]
}

// standIn returns the commit of the range standing in for session id's
// end commit, "" when none.
func (rw *rewrites) standIn(id string) string {
	if rw == nil {
		return ""
	}
	return rw.endOf[id]
}

// startStandIn returns the commit of the range standing in for start, a
// commit not in this clone, when start is the end commit of a session
// whose rewrite here stands in for it, and that session's id: the next
// session began on it, and the rebase that rewrote one rewrote both
// (helper 350: two sessions on a branch, then `git pull --rebase`).
func (rw *rewrites) startStandIn(start string) (commit, of string) {
	if rw == nil || start == "" {
		return "", ""
	}
	h := sumHex(start)
	for _, id := range slices.Sorted(maps.Keys(rw.endOf)) {
		if rw.endHash[id] == h {
			return rw.endOf[id], id
		}
	}
	return "", ""
}

// pathChange is one path of a fingerprint.
type pathChange struct{ oldMode, newMode, old, new string }

func parsePrint(p string) (map[string]pathChange, bool) {
	m := map[string]pathChange{}
	for line := range strings.SplitSeq(p, "\n") {
		meta, path, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 {
			return nil, false
		}
		m[path] = pathChange{f[0], f[1], f[2], f[3]}
	}
	return m, true
}

// runPrint composes the fingerprint of a session's whole recorded run,
// what a squash of it holds; ok is false when the run cannot be squashed
// soundly: a commit not gated (a replay, a pick), a BYPASS, a violation,
// a recorded commit off the run, no chain from the start to the end
// commit, or a path's blob before that is not the one the run left.
func runPrint(rc *recordCheck) (map[string]pathChange, bool) {
	if rc.ids == nil || len(rc.bypassed) > 0 || len(rc.violations) > 0 {
		return nil, false
	}
	run, ok := rc.chain()
	if !ok || len(run) != len(rc.recorded) {
		return nil, false // a recorded commit off the run: not a squash of it
	}
	cur := map[string]pathChange{}
	for _, r := range run {
		if r.change == "" {
			return nil, false
		}
		m, ok := parsePrint(r.change)
		if !ok {
			return nil, false
		}
		for path, pc := range m {
			if was, seen := cur[path]; seen {
				if was.new != pc.old || was.newMode != pc.oldMode {
					return nil, false
				}
				was.new, was.newMode = pc.new, pc.newMode
				cur[path] = was
			} else {
				cur[path] = pc
			}
		}
	}
	maps.DeleteFunc(cur, func(_ string, pc pathChange) bool { return pc.old == pc.new && pc.oldMode == pc.newMode })
	return cur, true
}

// bareSquashes passes the failed commits of the range without a
// Session-Id trailer that are a squash of one session's whole recorded
// run, when that session's record passes what a commit of it gets.
func (rw *rewrites) bareSquashes(ctx context.Context, src source, opts Options, trust *protocolTrust, claims *claimCheck, rep *Report, commits []gitrepo.Commit, records map[string]*recordCheck) bool {
	if rw == nil || opts.inSquash || opts.replayDepth > 0 {
		return false
	}
	var failed []int
	for i := range rep.Commits {
		if rep.Commits[i].Status == "fail" && len(commits[i].Trailers[TrailerSession]) == 0 {
			failed = append(failed, i)
		}
	}
	if len(failed) == 0 {
		return false
	}
	prints := rw.fingerprints(ctx)
	if !slices.ContainsFunc(failed, func(i int) bool { return prints[rep.Commits[i].SHA] != "" }) {
		return false
	}
	// The sessions to look in: the range's, then the others on the ref.
	ids := slices.Sorted(maps.Keys(records))
	note := ""
	if src.ref != "" && src.refTip != "" {
		all, err := recordref.List(ctx, src.repo.Root(), src.refTip)
		if err != nil {
			note = err.Error()
		}
		var more []string
		for _, id := range all {
			if _, ok := records[id]; !ok {
				more = append(more, id)
			}
		}
		if len(more) > maxScanRecords {
			note = fmt.Sprintf("%d session records on %s, more than the %d searched", len(more), src.ref, maxScanRecords)
			more = more[:maxScanRecords]
		}
		read, err := recordref.ReadMany(ctx, src.repo.Root(), src.refTip, more)
		if err != nil {
			note = err.Error()
		}
		if src.read == nil {
			src.read = map[string]recordref.Result{}
		}
		maps.Copy(src.read, read)
		ids = append(ids, more...)
	}
	changed := false
	used := map[string]bool{}
	for _, i := range failed {
		cr := &rep.Commits[i]
		want, ok := parsePrint(prints[cr.SHA])
		if prints[cr.SHA] == "" || !ok {
			continue
		}
		passed := false
		var held []string
		for _, sid := range ids {
			rc := records[sid]
			if rc == nil {
				r, ok := src.read[sid]
				if !ok || r.Err != nil {
					continue
				}
				rc = checkRecord(&recordCheck{path: src.ref + ":" + r.Path}, r.Body, sid, src.identity(ctx))
			}
			run, ok := runPrint(rc)
			if !ok || used[sid] || rw.vouched[sid] || !maps.Equal(run, want) {
				continue
			}
			if slices.ContainsFunc(rc.recorded, func(r recorded) bool { return rw.reachable(ctx, r.h) }) {
				held = append(held, fmt.Sprintf("session %s's commits hold this change, but their originals are still in this history: a copy of work that was not rewritten is new work", sid))
				continue
			}
			if h, why := rw.landed(ctx, cr.SHA, prints[cr.SHA], sid); h != "" {
				held = append(held, fmt.Sprintf("session %s's commits hold this change, but %s: a session's run vouches for one copy", sid, why))
				continue
			}
			// Judged as a commit of that session, under its final snapshot.
			rw.squash[cr.SHA] = sid
			rw.endOf[sid] = cr.SHA
			rw.judged[sid] = true
			rw.ok[cr.SHA] = fmt.Sprintf("a squash of checked work (such as GitLab's squash, fast-forwarded): its paths, blobs before and after, are those of all of session %s's %d commit(s), each through its pre-commit, from its first to its end commit, whose originals are not in this history", sid, len(rc.recorded))
			try := CommitReport{SHA: cr.SHA, Subject: cr.Subject, SessionID: sid, SnapshotID: rc.final, Status: "ok", Problems: []string{}}
			checkCommit(ctx, src, opts, trust, records, &try)
			claims.commit(ctx, records[sid], &try)
			// A session that verifies with a warning (COMPLETE, not clean:
			// a failing optional gate skipped) vouches for its squash too,
			// and the squash keeps the warning.
			if try.Status != "fail" {
				try.Problems = append([]string{fmt.Sprintf("no %s trailer, and", TrailerSession)}, try.Problems...)
				*cr = try
				changed, passed, used[sid], rw.vouched[sid] = true, true, true, true
				break
			}
			delete(rw.squash, cr.SHA)
			delete(rw.endOf, sid)
			held = append(held, fmt.Sprintf("session %s holds it but does not verify: %s", sid, strings.Join(try.Problems, "; ")))
		}
		if !passed {
			msg := "no session's whole recorded run of gated commits makes this change (paths, blobs before and after)"
			if len(held) > 0 {
				msg += ": " + shorten.Bytes(strings.Join(held, "; "), 1000, "...")
			}
			if note != "" {
				msg += " (" + note + ")"
			}
			cr.Problems = append(cr.Problems, msg)
		}
	}
	return changed
}

// landed looks for a copy of change p that already landed before the
// range: a commit of c's history outside the range with the same
// fingerprint that names session id or no session. reachable() asks
// whether the original is there; once an earlier push's rewrite or squash
// replaced it, that copy is what is there, and a second one (the rewrite
// cherry-picked back after the session's own revert, a squash landed
// again) is new work the session never gated. Copies inside the range are
// the recorded order's to judge; a landed copy naming another session is
// that session's own gated change (a revert reverted). h is "" when none;
// a failure to look counts as a copy.
func (rw *rewrites) landed(ctx context.Context, c, p, id string) (h, why string) {
	m, ok := parsePrint(p)
	if !ok || len(m) == 0 {
		return "?", "its change could not be read"
	}
	// The path whose blob changes, preferring one written: --find-object
	// then lists the few commits that add or drop that blob there.
	var path, blob string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		pc := m[k]
		if pc.old == pc.new {
			continue
		}
		path, blob = k, pc.new
		if strings.Trim(pc.new, "0") == "" {
			blob = pc.old
		}
		if strings.Trim(pc.new, "0") != "" {
			break
		}
	}
	if path == "" {
		path = slices.Sorted(maps.Keys(m))[0] // modes only
	}
	cs, err := rw.repo.CommitsWithBlob(ctx, c, blob, path)
	if err != nil {
		return "?", "its history could not be searched for an earlier copy: " + err.Error()
	}
	inRange := make(map[string]bool, len(rw.commits))
	for _, rc := range rw.commits {
		inRange[rc.SHA] = true
	}
	var look []string
	for _, o := range cs {
		if v := o.Trailers[TrailerSession]; !inRange[o.SHA] && (len(v) == 0 || v[len(v)-1] == id) {
			look = append(look, o.SHA)
		}
	}
	if len(look) == 0 {
		return "", ""
	}
	prints, err := rw.repo.ChangePrints(ctx, look)
	if err != nil {
		return "?", "its history could not be searched for an earlier copy: " + err.Error()
	}
	for _, o := range look {
		if prints[o] == p {
			return o, fmt.Sprintf("commit %s, already in this history before the range, is a copy of that change", shorten.SHA(o))
		}
	}
	return "", ""
}

// maxScanRecords bounds the records read to find the session of a squash.
const maxScanRecords = 1000

// rewritten reports whether cr, a commit its session never recorded, is
// its rewrite or squash, and says which in cr's problems (notes); a
// candidate that is not gets why.
func rewritten(rw *rewrites, cr *CommitReport) bool {
	note, why := rw.passes(cr.SHA, cr.SessionID)
	if note != "" {
		cr.Problems = beforeNotClean(cr.Problems, note)
		return true
	}
	if why != "" {
		cr.Problems = append(cr.Problems, why)
	}
	return false
}

// printInRange reports whether a commit of the range has change p.
func (rw *rewrites) printInRange(ctx context.Context, p string) bool {
	for _, c := range rw.commits {
		if q := rw.fingerprints(ctx)[c.SHA]; q != "" && q == p {
			return true
		}
	}
	return false
}
