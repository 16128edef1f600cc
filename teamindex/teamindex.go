// Package teamindex keeps a team database current from many repositories'
// records refs (sessiongate index, serve --index): for each source it
// fetches the records ref into a bare mirror of its own, reads the record
// commits it has not indexed yet (recordref.Changes), checks every record
// and imports the good ones, replacing what an earlier record of the same
// session imported.
//
//   - Incremental: each source's last indexed records commit is stored; only
//     commits after it are read.
//   - Idempotent: the blob each session was imported from is stored; the
//     same blob again writes nothing.
//   - Crash-safe: a batch of records and the commit it reaches are written
//     in one transaction, so after a kill the next run resumes after the
//     last committed batch: nothing missing, nothing twice.
//   - Nothing from a repository runs: git only fetches into a mirror this
//     package created (hooks off, no ext:: transport, no prompts), and
//     reads blobs there; records are data, parsed and checked.
//   - A record that does not parse, is too large, belongs to another
//     session or repository, or whose snapshot ids do not recompute is
//     reported and skipped, never half-imported.
package teamindex

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/identity"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// Store is a session store with the index's bookkeeping (the PostgreSQL
// store has it).
type Store interface {
	session.Store
	IndexTip(ctx context.Context, source string) (string, error)
	IndexedBlob(ctx context.Context, sessionID string) (source, blob string, err error)
}

// bookkeeper is the write side, inside Update.
type bookkeeper interface {
	SetIndexTip(ctx context.Context, source, tip string) error
	SetIndexedBlob(ctx context.Context, sessionID, source, blob string) error
	// IndexedState: for the stored ones of ids, their repository and the
	// blob they were indexed from, in one query.
	IndexedState(ctx context.Context, ids []string) (repoIDs map[string]int64, blobs map[string]string, err error)
}

// batchState is what a batch's transaction knows before importing.
type batchState struct {
	repoIDs map[string]int64
	blobs   map[string]string
	repo    *session.Repository // the source's, ensured on first use
}

// Options configure an index run.
type Options struct {
	Ref      string // records ref; recordref.DefaultRef when ""
	CacheDir string // where the bare mirrors live
	Batch    int    // records per transaction; 200 when 0
}

// Source is one repository to index: where to fetch from and the
// repository key its records are filed under.
type Source struct {
	Location string // a remote URL or a local repository path
	Key      string // the repository's key (normalized origin URL)
}

// ParseSource reads an --index value: "LOCATION", whose key is the
// normalized location, or "KEY=LOCATION" to file a local mirror's records
// under its real origin (e.g. github.com/o/r=/srv/mirrors/r.git).
func ParseSource(v string) (Source, error) {
	v = strings.TrimSpace(v)
	loc, key := v, ""
	if k, l, ok := strings.Cut(v, "="); ok && !strings.Contains(k, "://") && l != "" {
		key, loc = identity.NormalizeRemoteURL(k), l
	}
	if loc == "" {
		return Source{}, errors.New("empty repository to index")
	}
	if key == "" {
		key = identity.NormalizeRemoteURL(loc)
	}
	if key == "" {
		return Source{}, fmt.Errorf("%q names no repository", v)
	}
	return Source{Location: loc, Key: key}, nil
}

// Problem is a record that was reported and skipped.
type Problem struct {
	Record string `json:"record"` // path on the records ref, at its commit
	Reason string `json:"reason"`
}

// Result is what one source's run did.
type Result struct {
	Source    string    `json:"source"`
	Key       string    `json:"repository"`
	From      string    `json:"from_commit,omitempty"`
	To        string    `json:"to_commit,omitempty"`
	Imported  int       `json:"imported"`
	Unchanged int       `json:"unchanged"`
	Skipped   []Problem `json:"skipped"`
}

// Index brings the store up to date with one source's records ref.
func Index(ctx context.Context, st Store, src Source, opts Options) (*Result, error) {
	if opts.Ref == "" {
		opts.Ref = recordref.DefaultRef
	}
	if err := recordref.ValidRef(opts.Ref); err != nil {
		return nil, err
	}
	if opts.Batch <= 0 {
		opts.Batch = 200
	}
	res := &Result{Source: src.Location, Key: src.Key, Skipped: []Problem{}}
	mirror, err := fetch(ctx, opts.CacheDir, src.Location, opts.Ref)
	if err != nil {
		return res, err
	}
	tip, err := recordref.Tip(ctx, mirror, opts.Ref)
	if err != nil {
		return res, err
	}
	since, err := st.IndexTip(ctx, src.Location)
	if err != nil {
		return res, err
	}
	res.From, res.To = since, tip
	if tip == since {
		return res, nil
	}
	if since != "" && !known(ctx, mirror, since) {
		since = "" // the ref was rewritten: read it all (unchanged blobs write nothing)
	}
	changes, err := recordref.Changes(ctx, mirror, since, tip)
	if err != nil {
		return res, err
	}
	// Actor records (who made a commit no session covered) sit beside the
	// session records; the team index does not import them (yet): they are
	// not bad records either.
	changes = slices.DeleteFunc(changes, func(ch recordref.Change) bool {
		return strings.HasPrefix(ch.Path, recordref.ActorsDir+"/")
	})
	// Only a session's newest record in the range counts: an older one
	// would be imported and then replaced.
	newest := map[string]int{}
	for i, ch := range changes {
		if ch.SessionID != "" {
			newest[ch.SessionID] = i
		}
	}
	var wanted []recordref.Change
	for i, ch := range changes {
		if ch.SessionID != "" && newest[ch.SessionID] == i {
			wanted = append(wanted, ch)
		}
	}
	blobs, err := readBlobs(ctx, mirror, wanted)
	if err != nil {
		return res, err
	}
	// Batches end at commit boundaries, so the tip written with a batch
	// is a commit whose records are all in.
	var batch []recordref.Change
	flush := func(upTo string) error {
		err := st.Update(ctx, func(w session.Writer) error {
			bk, ok := w.(bookkeeper)
			if !ok {
				return fmt.Errorf("the store cannot hold a team index (use a PostgreSQL --db)")
			}
			var ids []string
			for _, ch := range batch {
				if ch.SessionID != "" {
					ids = append(ids, ch.SessionID)
				}
			}
			var bs batchState
			var err error
			if bs.repoIDs, bs.blobs, err = bk.IndexedState(ctx, ids); err != nil {
				return err
			}
			for _, ch := range batch {
				if err := importOne(ctx, w, bk, &bs, blobs[ch.Blob], src, ch, res); err != nil {
					return err
				}
			}
			return bk.SetIndexTip(ctx, src.Location, upTo)
		})
		batch = batch[:0]
		return err
	}
	for i, ch := range changes {
		if ch.SessionID == "" || newest[ch.SessionID] == i {
			batch = append(batch, ch)
		}
		last := i == len(changes)-1
		if last || (len(batch) >= opts.Batch && len(batch) > 0 && changes[i+1].Commit != ch.Commit) {
			upTo := ch.Commit
			if last {
				upTo = tip
			}
			if err := flush(upTo); err != nil {
				return res, fmt.Errorf("index %s: %w", src.Location, err)
			}
		}
	}
	if len(changes) == 0 {
		if err := flush(tip); err != nil {
			return res, fmt.Errorf("index %s: %w", src.Location, err)
		}
	}
	return res, nil
}

// importOne checks one changed record and imports it; a bad record is
// added to res.Skipped. Only store errors are returned.
func importOne(ctx context.Context, w session.Writer, bk bookkeeper, bs *batchState, blob blobResult, src Source, ch recordref.Change, res *Result) error {
	where := ch.Path + " at " + shorten.SHA(ch.Commit)
	skip := func(format string, a ...any) {
		res.Skipped = append(res.Skipped, Problem{Record: where, Reason: fmt.Sprintf(format, a...)})
	}
	if ch.SessionID == "" {
		skip("not a record path (want %s/<xx>/<session id>.json)", recordref.Dir)
		return nil
	}
	if bs.blobs[ch.SessionID] == ch.Blob {
		res.Unchanged++
		return nil
	}
	if blob.problem != "" {
		skip("%s", blob.problem)
		return nil
	}
	rec, snaps, problem := check(blob.body, ch.SessionID, src.Key)
	if problem != "" {
		skip("%s", problem)
		return nil
	}
	if bs.repo == nil {
		repo, err := w.EnsureRepository(ctx, src.Key, rec.Session.Repository)
		if err != nil {
			return err
		}
		if !strings.HasPrefix(src.Key, "/") && repo.Origin != src.Key {
			if err := w.SetRepositoryOrigin(ctx, repo.ID, src.Key); err != nil {
				return err
			}
		}
		bs.repo = repo
	}
	repo := bs.repo
	if old, ok := bs.repoIDs[ch.SessionID]; ok {
		if old != repo.ID {
			skip("session %s is already indexed under another repository (id %d): the record claims a session it does not own", ch.SessionID, old)
			return nil
		}
		if err := w.DeleteSession(ctx, ch.SessionID); err != nil {
			return err
		}
	}
	m := rec.Session
	s := &session.Session{ID: ch.SessionID, RepoID: repo.ID, Branch: m.Branch, StartCommit: m.StartCommit, EndCommit: m.EndCommit,
		State: session.State(m.State), CreatedAt: parseTime(m.StartedAt), EndedAt: parseTime(m.EndedAt),
		UserName: m.UserName, UserEmail: m.UserEmail, Host: m.Host}
	final := rec.Snapshots[len(rec.Snapshots)-1].State
	s.ProtocolSHA, s.Phase = final.ProtocolSHA256, final.Phase
	s.LastActivity = s.CreatedAt
	evs := make([]session.Event, 0, len(rec.Events))
	for _, ev := range rec.Events {
		at := parseTime(ev.At)
		if at.After(s.LastActivity) {
			s.LastActivity = at
		}
		evs = append(evs, session.Event{SessionID: s.ID, Token: ev.Token, CreatedAt: at})
	}
	vs := make([]session.Violation, 0, len(rec.Violations))
	for _, v := range rec.Violations {
		vs = append(vs, session.Violation{SessionID: s.ID, RepoID: repo.ID, Code: v.Code, Phase: v.Phase, Requirement: v.Requirement,
			Severity: v.Severity, Window: session.WindowSession, CreatedAt: parseTime(v.At)})
	}
	if bi, ok := w.(bulkImporter); ok {
		if err := bi.ImportSession(ctx, s, snaps, evs, vs, src.Location, ch.Blob); err != nil {
			return err
		}
	} else {
		if err := importRows(ctx, w, s, snaps, evs, vs); err != nil {
			return err
		}
		if err := bk.SetIndexedBlob(ctx, s.ID, src.Location, ch.Blob); err != nil {
			return err
		}
	}
	bs.repoIDs[s.ID], bs.blobs[s.ID] = repo.ID, ch.Blob
	res.Imported++
	return nil
}

// bulkImporter writes a session and its rows at once (the PostgreSQL
// store, in one round trip).
type bulkImporter interface {
	ImportSession(ctx context.Context, s *session.Session, snaps []session.Snapshot, evs []session.Event, vs []session.Violation, source, blob string) error
}

// importRows writes a session and its rows through session.Writer.
func importRows(ctx context.Context, w session.Writer, s *session.Session, snaps []session.Snapshot, evs []session.Event, vs []session.Violation) error {
	if err := w.CreateSession(ctx, s); err != nil {
		return err
	}
	for i := range snaps {
		if err := w.AddSnapshot(ctx, &snaps[i]); err != nil {
			return err
		}
	}
	for i := range evs {
		if err := w.AppendEvent(ctx, &evs[i]); err != nil {
			return err
		}
	}
	for i := range vs {
		if err := w.AddViolation(ctx, &vs[i]); err != nil {
			return err
		}
	}
	return nil
}

// check parses a record and returns it with its snapshots as the store
// keeps them (recomputed ids, canonical payloads), or what is wrong.
func check(body []byte, id, key string) (*snapshot.Record, []session.Snapshot, string) {
	var rec snapshot.Record
	if err := json.Unmarshal(body, &rec); err != nil {
		return nil, nil, "not a session record: " + err.Error()
	}
	if rec.SessionID != id {
		return nil, nil, fmt.Sprintf("the record is of session %q, its path names %s", rec.SessionID, id)
	}
	if rec.Session == nil {
		return nil, nil, "the record carries no session metadata (written in-tree, not for a records ref)"
	}
	if len(rec.Snapshots) == 0 {
		return nil, nil, "the record has no snapshot"
	}
	if o := rec.Session.Origin; o != "" && identity.NormalizeRemoteURL(o) != key {
		return nil, nil, fmt.Sprintf("the record claims repository %s, this source is %s", o, key)
	}
	if _, err := session.ParseState(rec.Session.State); err != nil {
		return nil, nil, err.Error()
	}
	if parseTime(rec.Session.StartedAt).IsZero() {
		return nil, nil, fmt.Sprintf("started_at %q is not an RFC 3339 time", rec.Session.StartedAt)
	}
	var snaps []session.Snapshot
	var last string
	for i := range rec.Snapshots {
		p := rec.Snapshots[i]
		if p.Session.SessionID != id {
			return nil, nil, fmt.Sprintf("snapshot %d belongs to session %s", i, p.Session.SessionID)
		}
		sid, canon, err := p.ID()
		if err != nil {
			return nil, nil, fmt.Sprintf("snapshot %d: %v", i, err)
		}
		snaps = append(snaps, session.Snapshot{SessionID: id, SnapshotID: sid, Payload: canon, CreatedAt: parseTime(rec.Session.StartedAt)})
		last = sid
	}
	if rec.Envelope.Snapshot.StateSnapshotID != last {
		return nil, nil, fmt.Sprintf("envelope id %s does not match the recomputed final snapshot %s (record edited)", rec.Envelope.Snapshot.StateSnapshotID, last)
	}
	for _, ev := range rec.Events {
		if ev.Token == "" || parseTime(ev.At).IsZero() {
			return nil, nil, fmt.Sprintf("event %d has no token or no time", ev.Seq)
		}
	}
	for _, v := range rec.Violations {
		if v.Code == "" || v.Severity == "" {
			return nil, nil, "a violation without code or severity"
		}
	}
	return &rec, snaps, ""
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// gitEnv keeps git from asking anyone anything or reading a user's config
// that could run a program (credential helpers run only for prompts).
var gitEnv = []string{"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=" + os.DevNull, "SSH_ASKPASS=" + os.DevNull, "GIT_SSH_COMMAND=ssh -o BatchMode=yes"}

// fetch brings the source's records ref into a bare mirror under cacheDir
// that this package created, and returns the mirror.
func fetch(ctx context.Context, cacheDir, location, ref string) (string, error) {
	if cacheDir == "" {
		return "", errors.New("no cache folder for the index's mirrors")
	}
	sum := sha256.Sum256([]byte(location))
	mirror := filepath.Join(cacheDir, hex.EncodeToString(sum[:8])+".git")
	if _, err := os.Stat(mirror); err != nil {
		// Made aside and renamed into place, so a run cut off while
		// creating it never leaves half a repository behind.
		if err := os.MkdirAll(cacheDir, 0o700); err != nil {
			return "", fmt.Errorf("create the index cache: %w", err)
		}
		tmp, err := os.MkdirTemp(cacheDir, "new-")
		if err != nil {
			return "", fmt.Errorf("create the index cache: %w", err)
		}
		defer os.RemoveAll(tmp)
		if out, err := git(ctx, "", "init", "-q", "--bare", tmp); err != nil {
			return "", fmt.Errorf("create a mirror for %s: %v %s", location, err, out)
		}
		if err := os.Rename(tmp, mirror); err != nil && !errors.Is(err, os.ErrExist) {
			if _, serr := os.Stat(mirror); serr != nil { // not another run's mirror
				return "", fmt.Errorf("create a mirror for %s: %w", location, err)
			}
		}
	}
	unlock, err := lockMirror(ctx, mirror, ref)
	if err != nil {
		return "", err
	}
	defer unlock()
	// No auto gc or maintenance after the fetch (one process less per
	// source; the mirrors hold one small ref), and what arrives is kept as
	// one pack instead of a loose file per record (unpackLimit=1).
	if out, err := git(ctx, mirror, "-c", "gc.auto=0", "-c", "maintenance.auto=false", "-c", "fetch.unpackLimit=1",
		"fetch", "-q", "--no-tags", "--no-write-fetch-head", "--no-auto-maintenance", location, "+"+ref+":"+ref); err != nil {
		msg := strings.TrimSpace(out)
		if strings.Contains(msg, "couldn't find remote ref") {
			return "", fmt.Errorf("%s has no %s: nothing recorded there yet (records are pushed with the code by pre-push)", location, ref)
		}
		return "", fmt.Errorf("fetch %s from %s: %s", ref, location, msg)
	}
	return mirror, nil
}

// blobResult is a record's bytes, or why they were not read.
type blobResult struct {
	body    []byte
	problem string
}

// readBlobs reads the changed records' blobs with two git processes in
// all (cat-file --batch-check for types and sizes, then --batch for the
// bodies of the regular ones within recordref.MaxRecordBytes), instead of
// two per record.
func readBlobs(ctx context.Context, mirror string, chs []recordref.Change) (map[string]blobResult, error) {
	out := map[string]blobResult{}
	if len(chs) == 0 {
		return out, nil
	}
	var ids bytes.Buffer
	for _, ch := range chs {
		ids.WriteString(ch.Blob + "\n")
	}
	check, err := gitIn(ctx, mirror, ids.Bytes(), "cat-file", "--batch-check")
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	var ok bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(string(check)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			if len(f) > 0 {
				out[f[0]] = blobResult{problem: "missing from the records ref's objects"}
			}
			continue
		}
		size, _ := strconv.ParseInt(f[2], 10, 64)
		switch {
		case f[1] != "blob":
			out[f[0]] = blobResult{problem: "not a record file (a " + f[1] + ")"}
		case size > recordref.MaxRecordBytes:
			out[f[0]] = blobResult{problem: fmt.Sprintf("%d bytes, over the %d-byte limit of a record", size, recordref.MaxRecordBytes)}
		default:
			ok.WriteString(f[0] + "\n")
		}
	}
	if ok.Len() == 0 {
		return out, nil
	}
	data, err := gitIn(ctx, mirror, ok.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	// Each entry: "<oid> blob <size>\n<size bytes>\n".
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			return nil, errors.New("read records: truncated git cat-file output")
		}
		f := strings.Fields(string(data[:nl]))
		if len(f) != 3 {
			return nil, fmt.Errorf("read records: unexpected git cat-file line %q", data[:nl])
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || nl+1+size > len(data) {
			return nil, errors.New("read records: truncated git cat-file output")
		}
		out[f[0]] = blobResult{body: data[nl+1 : nl+1+size]}
		data = data[min(len(data), nl+1+size+1):]
	}
	return out, nil
}

// known reports whether the mirror has a commit.
func known(ctx context.Context, mirror, commit string) bool {
	_, err := git(ctx, mirror, "cat-file", "-e", commit+"^{commit}")
	return err == nil
}

// gitIn runs git on the mirror with stdin and returns its stdout.
func gitIn(ctx context.Context, gitDir string, stdin []byte, args ...string) ([]byte, error) {
	full := []string{"-c", "core.hooksPath=" + os.DevNull, "-c", "protocol.ext.allow=never", "--git-dir=" + gitDir}
	cmd := gitenv.Command(ctx, "", gitEnv, append(full, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// git runs git with hooks off, no ext:: transport and no prompts, in
// gitenv's environment: the mirror's blobs as held, no replace refs.
func git(ctx context.Context, gitDir string, args ...string) (string, error) {
	full := []string{"-c", "core.hooksPath=" + os.DevNull, "-c", "protocol.ext.allow=never", "-c", "core.fsmonitor=false"}
	if gitDir != "" {
		full = append(full, "--git-dir="+gitDir)
	}
	cmd := gitenv.Command(ctx, "", gitEnv, append(full, args...)...)
	// Cut off by the context, git gets SIGTERM first, on which it removes
	// its lock files; SIGKILL only if it has not ended a second later.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}
