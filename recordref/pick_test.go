package recordref_test

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/recordref"
)

// TestPushPicked: fork-records: push sends origin only the records of the
// pull request's sessions. A fork's records ref holds more: a session no
// commit of the pull request names, an unchecked stop of another
// conversation, an actor claim. Only the named session's record (every
// version of it), its pin, its conversation's stop and the ABANDONED
// session it continues reach the remote; a second push sends nothing; a
// picked record the remote holds with other bytes is a ConflictError and
// nothing moves.
func TestPushPicked(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	origin := newRepo(t)
	bare := filepath.Join(t.TempDir(), "team.git")
	run(t, origin, "clone", "-q", "--bare", origin, bare)
	theirs := uuid(t) // a session origin already holds, in conversation conv-origin
	theirsBody := []byte(`{"session_id":"` + theirs + `","session":{"conversations":[{"agent":"claude","id":"conv-origin"}]}}` + "\n")
	if _, err := recordref.Put(ctx, origin, ref, []recordref.Record{{SessionID: theirs, Body: theirsBody}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.Push(ctx, origin, bare, ref); err != nil {
		t.Fatal(err)
	}
	fork := filepath.Join(t.TempDir(), "fork")
	run(t, origin, "clone", "-q", bare, fork)
	run(t, fork, "fetch", "-q", "origin", "+"+ref+":"+ref)

	pr, abandoned, other := uuid(t), uuid(t), uuid(t)
	conv := `{"conversations":[{"agent":"claude","id":"conv-pr"}]}`
	put := func(id, b string) {
		t.Helper()
		if _, err := recordref.Put(ctx, fork, ref, []recordref.Record{{SessionID: id, Body: []byte(b + "\n")}}); err != nil {
			t.Fatal(err)
		}
	}
	put(abandoned, `{"session_id":"`+abandoned+`"}`)
	put(pr, `{"session_id":"`+pr+`","session":`+conv+`}`)
	stop := func(c string) string {
		b, p, err := recordref.StopBody(recordref.UncheckedStop{Agent: "claude", Conversation: c, At: time.Unix(1, 0), Why: "locked"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := recordref.PutStop(ctx, fork, ref, p, b); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prStop := stop("conv-pr")                // in the pinned history: the session's own, allowed
	pinned := run(t, fork, "rev-parse", ref) // a commit's Session-Pin names it
	put(other, `{"session_id":"`+other+`"}`)
	put(pr, `{"session_id":"`+pr+`","session":`+conv+`,"events":[{"seq":1,"token":"session:continues:`+abandoned+`","at":"2026-01-01T00:00:00Z"}]}`)
	pin(t, fork, pr, 2)
	otherStop := stop("conv-other")
	actor := "actors/ab/" + strings.Repeat("ab", 20) + ".json"
	tip := run(t, fork, "rev-parse", ref)
	run(t, fork, "update-ref", ref, forge(t, fork, tip, actor, `{"actor":"person"}`))

	res, err := recordref.PushPicked(ctx, fork, "origin", ref, []string{pr}, []string{pinned})
	if err != nil || !res.Pushed {
		t.Fatalf("PushPicked: %+v %v", res, err)
	}
	if want := []string{abandoned, pr}; !slices.Equal(res.Sessions, slices.Sorted(slices.Values(want))) {
		t.Errorf("sessions %v, want %v (the named one and the one it continues)", res.Sessions, want)
	}
	held := run(t, bare, "ls-tree", "-r", "--name-only", ref)
	path := func(id string) string { p, _ := recordref.Path(id); return p }
	pinPath, _ := recordref.PinPath(pr)
	for _, p := range []string{path(pr), path(abandoned), pinPath, prStop, path(theirs)} {
		if !strings.Contains(held, p) {
			t.Errorf("origin lacks %s:\n%s", p, held)
		}
	}
	for _, p := range []string{path(other), otherStop, actor} {
		if strings.Contains(held, p) || run(t, bare, "log", "--format=%H", ref, "--", p) != "" {
			t.Errorf("origin holds %s, which is not the pull request's", p)
		}
	}
	if _, err := exec.Command("git", "-C", bare, "merge-base", "--is-ancestor", pinned, ref).CombinedOutput(); err != nil {
		t.Errorf("origin's records ref does not hold the pinned records commit %s: %v", pinned, err)
	}
	if n := len(strings.Fields(run(t, bare, "log", "--format=%H", ref, "--", path(pr)))); n != 2 {
		t.Errorf("origin holds %d version(s) of the pull request's record, want 2 (verify reads its history)", n)
	}
	if run(t, bare, "rev-parse", ref+":"+path(pr)) != run(t, fork, "rev-parse", tip+":"+path(pr)) {
		t.Error("the pushed record's bytes differ from the fork's")
	}

	before := run(t, bare, "rev-parse", ref)
	if res, err := recordref.PushPicked(ctx, fork, "origin", ref, []string{pr}, nil); err != nil || res.Pushed {
		t.Errorf("second push: %+v %v, want nothing pushed", res, err)
	}
	// A Session-Pin naming a later records commit whose history adds a stop
	// of a conversation no picked session had and origin's record lists:
	// verify reads every stop in the history, so it would fail origin's
	// own session bound to it. Nothing is pushed.
	third := stop("conv-origin")
	if _, err := recordref.PushPicked(ctx, fork, "origin", ref, []string{pr}, []string{run(t, fork, "rev-parse", ref)}); !errors.As(err, new(*recordref.ConflictError)) || !strings.Contains(err.Error(), third) {
		t.Errorf("a pinned history adding another conversation's stop: %v, want a ConflictError naming %s", err, third)
	}
	if run(t, bare, "rev-parse", ref) != before {
		t.Error("origin's records ref moved")
	}
	// The fork rewrites a record origin holds and names its session.
	run(t, fork, "update-ref", ref, forge(t, fork, run(t, fork, "rev-parse", ref), path(theirs), `{"forged":true}`))
	_, err = recordref.PushPicked(ctx, fork, "origin", ref, []string{theirs}, nil)
	var ce *recordref.ConflictError
	if !errors.As(err, &ce) || !slices.Contains(ce.Paths, path(theirs)) {
		t.Errorf("a rewritten record origin holds: %v, want a ConflictError naming %s", err, path(theirs))
	}
	if run(t, bare, "rev-parse", ref) != before {
		t.Error("origin's records ref moved")
	}
}

// forge commits body at path on top of records commit tip, as a fork can.
func forge(t *testing.T, dir, tip, path, body string) string {
	t.Helper()
	ix := "GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")
	runIn(t, dir, ix, "", "read-tree", tip)
	blob := strings.TrimSpace(runIn(t, dir, ix, body, "hash-object", "-w", "--stdin"))
	runIn(t, dir, ix, "", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+path)
	tree := strings.TrimSpace(runIn(t, dir, ix, "", "write-tree"))
	return run(t, dir, "commit-tree", "-p", tip, "-m", "forged", tree)
}

// TestPushPickedForkOwnConversation: an honest fork whose records ref
// diverged from origin's (origin gained a session of its own; the
// contributor ran two sessions in one clone, one per pull request, and
// the first's later pin sits above the second's unchecked stop) gets its
// pull request's records onto origin: the pinned history's stop of the
// contributor's own other conversation names no conversation of any
// record origin holds, so it can fail none of origin's sessions (verify
// applies a stop to the sessions whose record lists its conversation).
// Round 23's refusal left the merged pull request failing on main. The
// lazy twin: a stop of a conversation origin's record lists is still
// refused and nothing moves.
func TestPushPickedForkOwnConversation(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	origin := newRepo(t)
	bare := filepath.Join(t.TempDir(), "team.git")
	run(t, origin, "clone", "-q", "--bare", origin, bare)
	theirs := uuid(t)
	theirsBody := []byte(`{"session_id":"` + theirs + `","session":{"conversations":[{"agent":"claude","id":"conv-origin"}]}}` + "\n")
	if _, err := recordref.Put(ctx, origin, ref, []recordref.Record{{SessionID: theirs, Body: theirsBody}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.Push(ctx, origin, bare, ref); err != nil {
		t.Fatal(err)
	}
	fork := filepath.Join(t.TempDir(), "fork")
	run(t, origin, "clone", "-q", bare, fork)
	run(t, fork, "fetch", "-q", "origin", "+"+ref+":"+ref)
	// origin moves on after the fork copied it: the two refs diverge.
	later := uuid(t)
	if _, err := recordref.Put(ctx, origin, ref, []recordref.Record{{SessionID: later, Body: body(later)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.Push(ctx, origin, bare, ref); err != nil {
		t.Fatal(err)
	}

	pr, second := uuid(t), uuid(t)
	put := func(id, b string) {
		t.Helper()
		if _, err := recordref.Put(ctx, fork, ref, []recordref.Record{{SessionID: id, Body: []byte(b + "\n")}}); err != nil {
			t.Fatal(err)
		}
	}
	stop := func(c string) string {
		t.Helper()
		b, p, err := recordref.StopBody(recordref.UncheckedStop{Agent: "claude", Conversation: c, At: time.Unix(1, 0), Why: "locked"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := recordref.PutStop(ctx, fork, ref, p, b); err != nil {
			t.Fatal(err)
		}
		return p
	}
	put(pr, `{"session_id":"`+pr+`","session":{"conversations":[{"agent":"claude","id":"conv-pr"}]}}`)
	put(second, `{"session_id":"`+second+`","session":{"conversations":[{"agent":"claude","id":"conv-second"}]}}`)
	ownStop := stop("conv-second") // the contributor's other conversation, under load
	pin(t, fork, pr, 2)
	pinned := run(t, fork, "rev-parse", ref) // the pull request's last commit names it

	res, err := recordref.PushPicked(ctx, fork, "origin", ref, []string{pr}, []string{pinned})
	if err != nil || !res.Pushed {
		t.Fatalf("PushPicked over a stop of the fork's own other conversation: %+v %v, want pushed", res, err)
	}
	if _, err := exec.Command("git", "-C", bare, "merge-base", "--is-ancestor", pinned, ref).CombinedOutput(); err != nil {
		t.Errorf("origin's records ref does not hold the pinned records commit: %v", err)
	}
	held := run(t, bare, "ls-tree", "-r", "--name-only", ref)
	path := func(id string) string { p, _ := recordref.Path(id); return p }
	for _, p := range []string{path(pr), path(theirs), path(later)} {
		if !strings.Contains(held, p) {
			t.Errorf("origin's tip lacks %s:\n%s", p, held)
		}
	}
	if strings.Contains(held, ownStop) || strings.Contains(held, path(second)) {
		t.Errorf("origin's tip holds the fork's other session's files (only its history may):\n%s", held)
	}

	// Lazy twin: the pinned history adds a stop of conv-origin, a
	// conversation origin's own record lists.
	before := run(t, bare, "rev-parse", ref)
	bad := stop("conv-origin")
	_, err = recordref.PushPicked(ctx, fork, "origin", ref, []string{pr}, []string{run(t, fork, "rev-parse", ref)})
	if !errors.As(err, new(*recordref.ConflictError)) || !strings.Contains(err.Error(), bad) {
		t.Errorf("a pinned history adding a stop of origin's conversation: %v, want a ConflictError naming %s", err, bad)
	}
	if run(t, bare, "rev-parse", ref) != before {
		t.Error("origin's records ref moved")
	}
}
