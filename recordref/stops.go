package recordref

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
)

// StopDir is the folder of the records ref that holds agent stops
// sessiongate let through without checking them (the database locked, the
// hook's time limit passed): stops/<key[:2]>/<key>/<sha256 of the stop>.json,
// key the sha256 of the agent and its conversation id. The note beside
// the database (package stopnote) is a file the agent can delete by a path
// only run time knows; the ref is written at the same moment with git
// plumbing (no database lock), travels with pushes, and verify reads every
// stop its history ever held. A stop's outcome, once a sessiongate process
// judged it against the database, sits beside it as <same name>.folded.
const StopDir = "stops"

// UncheckedStop is one stop as written onto the ref: references only (the
// agent, the conversation's opaque id as the session record's
// conversations carry it, the worktree's fingerprint), never a body.
type UncheckedStop struct {
	Agent        string    `json:"agent"`
	Conversation string    `json:"conversation"`
	At           time.Time `json:"at"`
	Why          string    `json:"why"`            // a fixed class, not the error text (which names local paths)
	Mark         string    `json:"mark,omitempty"` // the worktree's fingerprint at the stop
}

// Outcomes a fold writes beside a stop.
const (
	StopRecorded  = "recorded"  // END_PROTOCOL_SKIPPED recorded on the session
	StopUnchanged = "unchanged" // the turn changed nothing: an allowed stop
	StopComplete  = "complete"  // the session was COMPLETE by then
	StopUnbound   = "unbound"   // no session was bound to the conversation
)

// StopOutcome is what a fold decided about one stop.
type StopOutcome struct {
	Outcome string    `json:"outcome"`
	Session string    `json:"session,omitempty"`
	At      time.Time `json:"at"`
}

// StopKey names a conversation on the ref (fixed length, safe in a path).
func StopKey(agent, conversation string) string {
	sum := sha256.Sum256([]byte(agent + "\x00" + conversation))
	return hex.EncodeToString(sum[:])
}

// StopBody is the stop's bytes on the ref and its path.
func StopBody(s UncheckedStop) (body []byte, path string, err error) {
	s.At = s.At.UTC()
	body, err = json.Marshal(s)
	if err != nil {
		return nil, "", fmt.Errorf("encode the unchecked stop: %w", err)
	}
	key := StopKey(s.Agent, s.Conversation)
	sum := sha256.Sum256(body)
	return body, StopDir + "/" + key[:2] + "/" + key + "/" + hex.EncodeToString(sum[:]) + ".json", nil
}

// foldedPath is where a stop's outcome lives.
func foldedPath(stopPath string) string { return strings.TrimSuffix(stopPath, ".json") + ".folded" }

var stopRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^` + StopDir + `/([0-9a-f]{2})/([0-9a-f]{64})/([0-9a-f]{64})\.(json|folded)$`)
})

// PutStop writes a stop's bytes at path (StopBody) onto ref in one
// fast-import commit: one git process, no database, so it works while the
// database is locked. A ref that does not exist yet is created.
func PutStop(ctx context.Context, dir, ref, path string, body []byte) (string, error) {
	if err := ValidRef(ref); err != nil {
		return "", err
	}
	if m := stopRE().FindStringSubmatch(path); m == nil || m[4] != "json" {
		return "", fmt.Errorf("write the unchecked stop: %q is not a stop path", path)
	}
	return importBodies(ctx, dir, ref, map[string][]byte{path: body}, "sessiongate unchecked stop\n\n"+path+"\n", "write the unchecked stop")
}

// PutStopOutcomes writes beside each stop (path -> outcome) what a fold
// decided, in one commit.
func PutStopOutcomes(ctx context.Context, dir, ref string, outcomes map[string]StopOutcome) (string, error) {
	if err := ValidRef(ref); err != nil {
		return "", err
	}
	bodies := make(map[string][]byte, len(outcomes))
	var names []string
	for p, o := range outcomes {
		if m := stopRE().FindStringSubmatch(p); m == nil || m[4] != "json" {
			return "", fmt.Errorf("write the outcome of an unchecked stop: %q is not a stop path", p)
		}
		o.At = o.At.UTC()
		b, err := json.Marshal(o)
		if err != nil {
			return "", fmt.Errorf("encode the outcome of an unchecked stop: %w", err)
		}
		bodies[foldedPath(p)] = b
		names = append(names, p)
	}
	if len(bodies) == 0 {
		return "", nil
	}
	return importBodies(ctx, dir, ref, bodies, fmt.Sprintf("sessiongate unchecked stops folded: %d\n\n%s\n", len(names), strings.Join(names, "\n")), "write the outcome of unchecked stops")
}

// StopFile is one stop read from the ref, with the outcome a fold wrote
// beside it (nil: none yet).
type StopFile struct {
	Path    string
	Stop    UncheckedStop
	Outcome *StopOutcome
	Body    []byte // the stop's bytes, as written (carried onto the records ref)
}

// StopRefPrefix is where a stop is first written, each on a ref of its own
// (ref + "-stops/" + 32 random hex digits), before any fold carries it onto
// the records ref itself. git locks a ref by creating <name>.lock: a shell
// started before the stop could hold refs/sessiongate/records.lock (or
// packed-refs.lock) so that the write onto the records ref failed at once
// and the stop lived only in the note the agent then deleted. A new loose
// ref at a name nobody knows before the stop needs neither lock.
func StopRefPrefix(ref string) string { return ref + "-stops/" }

// StopRef is one stop's own ref and its commit.
type StopRef struct{ Name, Commit string }

// PutStopRef writes a stop's bytes at path (StopBody) as a root commit on
// a new ref under StopRefPrefix(ref) whose name is random: one fast-import,
// neither the records ref's lock nor packed-refs' (a new loose ref takes
// only its own lock, which nobody can create in advance without its name).
func PutStopRef(ctx context.Context, dir, ref, path string, body []byte) (StopRef, error) {
	if err := ValidRef(ref); err != nil {
		return StopRef{}, err
	}
	if m := stopRE().FindStringSubmatch(path); m == nil || m[4] != "json" {
		return StopRef{}, fmt.Errorf("write the unchecked stop: %q is not a stop path", path)
	}
	var nonce [16]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return StopRef{}, fmt.Errorf("write the unchecked stop: name its ref: %w", err)
	}
	name := StopRefPrefix(ref) + hex.EncodeToString(nonce[:])
	commit, err := putFastImport(ctx, dir, name, "", map[string][]byte{path: body}, "sessiongate unchecked stop\n\n"+path+"\n")
	if err != nil {
		return StopRef{}, fmt.Errorf("write the unchecked stop onto %s: %w", name, err)
	}
	return StopRef{Name: name, Commit: commit}, nil
}

// ListStopRefs returns the stop refs of ref in the clone (one
// for-each-ref, which reads loose and packed refs alike).
func ListStopRefs(ctx context.Context, dir, ref string) ([]StopRef, error) {
	if err := ValidRef(ref); err != nil {
		return nil, err
	}
	out, err := git(ctx, dir, nil, nil, "for-each-ref", "--format=%(objectname) %(refname)", StopRefPrefix(ref))
	if err != nil {
		return nil, fmt.Errorf("list the unchecked stops' refs under %s: %w", StopRefPrefix(ref), err)
	}
	var refs []StopRef
	for _, line := range strings.Split(out, "\n") {
		if oid, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			refs = append(refs, StopRef{Name: name, Commit: oid})
		}
	}
	return refs, nil
}

// ReadStopRefs returns the stops on ref's stop refs (what each ref's
// commit added; outcomes are believed only from the records ref, so a
// .folded file on a stop ref is ignored) and the refs themselves. No
// stop ref: one git process; else three (for-each-ref, log, cat-file).
func ReadStopRefs(ctx context.Context, dir, ref string) ([]StopFile, []StopRef, error) {
	refs, err := ListStopRefs(ctx, dir, ref)
	if err != nil || len(refs) == 0 {
		return nil, nil, err
	}
	args := []string{"log", "--no-walk=unsorted", "--root", "--no-renames", "--format=%x1e", "--raw", "-z", "--no-abbrev", "--diff-filter=AM"}
	for _, r := range refs {
		args = append(args, r.Commit)
	}
	out, err := git(ctx, dir, nil, nil, append(args, "--", StopDir+"/")...)
	if err != nil {
		return nil, nil, fmt.Errorf("list the unchecked stops on their refs under %s: %w", StopRefPrefix(ref), err)
	}
	var blobs [][2]string
	for _, b := range parseRawPaths(out) {
		if strings.HasSuffix(b[0], ".json") {
			blobs = append(blobs, b)
		}
	}
	files, err := readStopBlobs(ctx, dir, blobs)
	if err != nil {
		return nil, nil, err
	}
	return files, refs, nil
}

// PutStops carries stops (read from their own refs) onto ref with the
// outcomes a fold decided beside them (path -> outcome; either may be
// empty), in one commit. A stop already on ref with the same bytes adds
// nothing.
func PutStops(ctx context.Context, dir, ref string, stops []StopFile, outcomes map[string]StopOutcome) (string, error) {
	if err := ValidRef(ref); err != nil {
		return "", err
	}
	bodies := map[string][]byte{}
	var names []string
	for _, s := range stops {
		if m := stopRE().FindStringSubmatch(s.Path); m == nil || m[4] != "json" || len(s.Body) == 0 {
			return "", fmt.Errorf("carry an unchecked stop: %q is not a stop path or has no bytes", s.Path)
		}
		bodies[s.Path] = s.Body
		names = append(names, s.Path)
	}
	for p, o := range outcomes {
		if m := stopRE().FindStringSubmatch(p); m == nil || m[4] != "json" {
			return "", fmt.Errorf("write the outcome of an unchecked stop: %q is not a stop path", p)
		}
		o.At = o.At.UTC()
		b, err := json.Marshal(o)
		if err != nil {
			return "", fmt.Errorf("encode the outcome of an unchecked stop: %w", err)
		}
		bodies[foldedPath(p)] = b
		if _, carried := bodies[p]; !carried {
			names = append(names, p)
		}
	}
	if len(bodies) == 0 {
		return "", nil
	}
	return importBodies(ctx, dir, ref, bodies, fmt.Sprintf("sessiongate unchecked stops: %d carried, %d folded\n\n%s\n", len(stops), len(outcomes), strings.Join(names, "\n")), "carry unchecked stops")
}

// DeleteStopRefs removes stop refs whose stops are on the records ref now,
// each only if it still points where it was read (one update-ref
// transaction).
func DeleteStopRefs(ctx context.Context, dir string, refs []StopRef) error {
	if len(refs) == 0 {
		return nil
	}
	var in strings.Builder
	for _, r := range refs {
		if err := ValidRef(r.Name); err != nil {
			return err
		}
		fmt.Fprintf(&in, "delete %s %s\n", r.Name, r.Commit)
	}
	if _, err := git(ctx, dir, []byte(in.String()), nil, "update-ref", "--stdin"); err != nil {
		return fmt.Errorf("remove the carried unchecked stops' refs: %w", err)
	}
	return nil
}

// ReadStops returns every stop the history of the ref up to tip ever
// added, not only those at tip: a later commit that drops a stop file (a
// rewrite with plumbing) does not take it away. Stops whose name is not the
// sha256 of their bytes, or whose key is not their conversation's, are
// left out. Two git processes (one log, one cat-file --batch).
func ReadStops(ctx context.Context, dir, tip string) ([]StopFile, error) {
	if tip == "" {
		return nil, nil
	}
	out, err := git(ctx, dir, nil, nil, "log", "--no-merges", "--no-renames", "--format=%x1e", "--raw", "-z", "--no-abbrev", "--diff-filter=AM", tip, "--", StopDir+"/")
	if err != nil {
		return nil, fmt.Errorf("list the unchecked stops at %.12s: %w", tip, err)
	}
	return readStopBlobs(ctx, dir, parseRawPaths(out))
}

// ReadStopsAt returns the stops in the tree at tip alone (one ls-tree, one
// cat-file): what a local fold reads, cheaper than the whole history.
func ReadStopsAt(ctx context.Context, dir, tip string) ([]StopFile, error) {
	if tip == "" {
		return nil, nil
	}
	ls, err := git(ctx, dir, nil, nil, "ls-tree", "-r", "-z", tip, "--", StopDir+"/")
	if err != nil {
		return nil, fmt.Errorf("list the unchecked stops at %.12s: %w", tip, err)
	}
	var blobs [][2]string // path, blob
	for _, line := range strings.Split(ls, "\x00") {
		meta, p, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if ok && len(f) == 3 && f[1] == "blob" {
			blobs = append(blobs, [2]string{p, f[2]})
		}
	}
	return readStopBlobs(ctx, dir, blobs)
}

// parseRawPaths reads `git log --raw -z` output into (path, new blob)
// pairs, newest commit first.
func parseRawPaths(out string) [][2]string {
	var blobs [][2]string
	for _, block := range strings.Split(out, "\x1e") {
		parts := strings.Split(block, "\x00")
		// --raw -z: ":oldmode newmode old new status\0path\0" per file.
		for i := 0; i+1 < len(parts); i++ {
			meta := strings.Fields(strings.TrimSpace(parts[i]))
			if len(meta) != 5 || !strings.HasPrefix(meta[0], ":") {
				continue
			}
			blobs = append(blobs, [2]string{parts[i+1], meta[3]})
			i++
		}
	}
	return blobs
}

// readStopBlobs reads the stops and outcomes among (path, blob) pairs.
// Of several versions of one outcome the first listed is kept.
func readStopBlobs(ctx context.Context, dir string, blobs [][2]string) ([]StopFile, error) {
	var oids []string
	var keep [][2]string
	for _, b := range blobs {
		if stopRE().MatchString(b[0]) {
			keep = append(keep, b)
			oids = append(oids, b[1])
		}
	}
	if len(oids) == 0 {
		return nil, nil
	}
	bodies, err := catBatch(ctx, dir, oids)
	if err != nil {
		return nil, fmt.Errorf("read the unchecked stops: %w", err)
	}
	var files []StopFile
	index := map[string]int{}
	outcomes := map[string]*StopOutcome{}
	for _, b := range keep {
		body, ok := bodies[b[1]]
		if !ok || len(body) > MaxRecordBytes {
			continue
		}
		m := stopRE().FindStringSubmatch(b[0])
		if m[4] == "folded" {
			var o StopOutcome
			if _, seen := outcomes[b[0]]; !seen && json.Unmarshal(body, &o) == nil {
				outcomes[b[0]] = &o
			}
			continue
		}
		var s UncheckedStop
		if json.Unmarshal(body, &s) != nil || s.Agent == "" || s.Conversation == "" {
			continue
		}
		if sum := sha256.Sum256(body); hex.EncodeToString(sum[:]) != m[3] || StopKey(s.Agent, s.Conversation) != m[2] || m[2][:2] != m[1] {
			continue // edited after it was written, or put under another conversation
		}
		if _, dup := index[b[0]]; dup {
			continue
		}
		index[b[0]] = len(files)
		files = append(files, StopFile{Path: b[0], Stop: s, Body: body})
	}
	for i := range files {
		files[i].Outcome = outcomes[foldedPath(files[i].Path)]
	}
	return files, nil
}
