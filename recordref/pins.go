package recordref

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/snapshot"
)

// PinsDir is the folder of the records ref that holds each session's
// newest event-chain pin (snapshot.EventPin): pins/<first two hex>/<id>.json.
const PinsDir = "pins"

// PinPath is where a session's pin lives on the ref.
func PinPath(id string) (string, error) {
	if !idRE().MatchString(id) {
		return "", fmt.Errorf("session id %q is not a lowercase UUID", id)
	}
	return PinsDir + "/" + id[:2] + "/" + id + ".json", nil
}

// PutPin writes a session's pin onto ref, replacing the one there, in one
// fast-import commit (CAS like Put). An identical pin writes nothing.
func PutPin(ctx context.Context, dir, ref string, p snapshot.EventPin) (string, error) {
	if err := ValidRef(ref); err != nil {
		return "", err
	}
	path, err := PinPath(p.SessionID)
	if err != nil {
		return "", fmt.Errorf("write event pin: %w", err)
	}
	if !isHexID(p.Commit) && !(p.Commit == "" && isHexID(p.Tree)) {
		return "", fmt.Errorf("write event pin %s: neither commit %q nor tree %q is 40 or 64 lowercase hex digits", path, p.Commit, p.Tree)
	}
	if _, ok := snapshot.ParseEventChain(p.Events); !ok {
		return "", fmt.Errorf("write event pin %s: %q is not an event chain head", path, p.Events)
	}
	if p.Version == 0 {
		p.Version = 1
	}
	body, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("write event pin %s: %w", path, err)
	}
	bodies := map[string][]byte{path: append(body, '\n')}
	msg := fmt.Sprintf("sessiongate records: session %s events %s\n", p.SessionID, p.Events)
	return importBodies(ctx, dir, ref, bodies, msg, "write event pin "+path)
}

// Pin reads a session's pin at records commit tip (nil when there is none)
// with one git process.
func Pin(ctx context.Context, dir, tip, id string) (*snapshot.EventPin, error) {
	path, err := PinPath(id)
	if err != nil || tip == "" {
		return nil, err
	}
	b, err := catBatch(ctx, dir, []string{tip + ":" + path})
	if err != nil {
		return nil, fmt.Errorf("read event pin %s: %w", path, err)
	}
	for _, body := range b {
		return parsePin(body, id, path)
	}
	return nil, nil
}

// PinHistory reads every version of a session's pin in the history of
// records commit tip, newest first: the pins earlier commits wrote, which
// a later rewrite of the database must still agree with. Pins that do not
// parse or name another session are reported as errors in bad, not
// dropped silently.
func PinHistory(ctx context.Context, dir, tip, id string) (pins []snapshot.EventPin, bad []string, err error) {
	path, err := PinPath(id)
	if err != nil || tip == "" {
		return nil, nil, err
	}
	blobs, err := versions(ctx, dir, tip, path, false)
	if err != nil {
		return nil, nil, fmt.Errorf("list event pins of %s: %w", id, err)
	}
	if len(blobs) == 0 {
		return nil, nil, nil
	}
	bodies, err := catBatch(ctx, dir, blobs)
	if err != nil {
		return nil, nil, fmt.Errorf("read event pins of %s: %w", id, err)
	}
	for _, b := range blobs {
		body, ok := bodies[b]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: blob %.12s is missing", path, b))
			continue
		}
		p, err := parsePin(body, id, path)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		pins = append(pins, *p)
	}
	return pins, bad, nil
}

func parsePin(body []byte, id, path string) (*snapshot.EventPin, error) {
	if len(body) > snapshot.MaxPinBytes {
		return nil, fmt.Errorf("event pin %s: %d bytes, over %d", path, len(body), snapshot.MaxPinBytes)
	}
	var p snapshot.EventPin
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, fmt.Errorf("event pin %s: not a pin: %w", path, err)
	}
	if p.SessionID != id {
		return nil, fmt.Errorf("event pin %s names session %q", path, p.SessionID)
	}
	if _, ok := snapshot.ParseEventChain(p.Events); !ok {
		return nil, fmt.Errorf("event pin %s: %q is not an event chain head", path, p.Events)
	}
	return &p, nil
}

// Witness reads, with one git process, the records ref's tip, session
// id's pin there and the trailers of the commit at HEAD (snapshot.PinWitness).
func Witness(ctx context.Context, dir, ref, id string) (snapshot.PinWitness, error) {
	var w snapshot.PinWitness
	if err := ValidRef(ref); err != nil {
		return w, err
	}
	path, err := PinPath(id)
	if err != nil {
		return w, err
	}
	objs, err := catNamed(ctx, dir, []string{ref + "^{commit}", ref + ":" + path, "HEAD"})
	if err != nil {
		return w, fmt.Errorf("read the event pin witness: %w", err)
	}
	if objs[0].typ == "commit" {
		w.Tip = objs[0].sha
	}
	if objs[1].typ == "blob" {
		if w.TipPin, err = parsePin(objs[1].body, id, path); err != nil {
			return w, err
		}
	}
	if objs[2].typ == "commit" {
		t := commitTrailers(objs[2].body)
		w.Head = objs[2].sha
		w.HeadSession, w.HeadEvents, w.HeadPin = t["Session-Id"], t["Session-Events"], t["Session-Pin"]
	}
	return w, nil
}

// PinAt reads session id's pin at records commit at and whether at is on
// the records ref whose commit is tip: tip itself or one of its
// ancestors. A commit git does not have is not on the ref. Two git
// processes (cat-file, merge-base).
func PinAt(ctx context.Context, dir, tip, at, id string) (*snapshot.EventPin, bool, error) {
	if !isHexID(at) {
		return nil, false, fmt.Errorf("records commit %q is not 40 or 64 lowercase hex digits", at)
	}
	path, err := PinPath(id)
	if err != nil {
		return nil, false, err
	}
	if tip == "" {
		return nil, false, nil
	}
	objs, err := catNamed(ctx, dir, []string{at + "^{commit}", at + ":" + path})
	if err != nil {
		return nil, false, fmt.Errorf("read the event pin at %.12s: %w", at, err)
	}
	if objs[0].typ != "commit" {
		return nil, false, nil
	}
	if at != tip {
		// exit 1: not an ancestor; both commits are known to git here.
		if _, err := git(ctx, dir, nil, nil, "merge-base", "--is-ancestor", at, tip); err != nil {
			var ge *gitError
			if errors.As(err, &ge) && ge.msg == "exit status 1" {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("is records commit %.12s on the ref: %w", at, err)
		}
	}
	if objs[1].typ != "blob" {
		return nil, true, nil
	}
	p, err := parsePin(objs[1].body, id, path)
	return p, true, err
}

// Unreachable lists the records commits of at that ref's history does not
// hold (ref moved back past them or deleted, or commits git never had),
// with one git process when all are present: rev-list lists what the
// commits reach that the tip does not, so a held commit never shows.
func Unreachable(ctx context.Context, dir, ref string, at []string) ([]string, error) {
	if err := ValidRef(ref); err != nil {
		return nil, err
	}
	tip, err := Tip(ctx, dir, ref)
	if err != nil {
		return nil, err
	}
	var out, have []string
	for _, c := range at {
		if !isHexID(c) {
			out = append(out, c)
		} else {
			have = append(have, c)
		}
	}
	if len(have) == 0 {
		return out, nil
	}
	if tip == "" {
		return append(out, have...), nil
	}
	// Commits git lacks make rev-list fail: find them first (cat-file
	// answers "missing" for each, in one process).
	objs, err := catNamed(ctx, dir, have)
	if err != nil {
		return nil, fmt.Errorf("look up records commits: %w", err)
	}
	var present []string
	for i, o := range objs {
		if o.typ != "commit" {
			out = append(out, have[i])
		} else {
			present = append(present, have[i])
		}
	}
	if len(present) == 0 {
		return out, nil
	}
	args := append([]string{"rev-list"}, present...)
	lst, err := git(ctx, dir, nil, nil, append(args, "^"+tip, "--")...)
	if err != nil {
		return nil, fmt.Errorf("which records commits %s holds: %w", ref, err)
	}
	listed := map[string]bool{}
	for _, l := range strings.Fields(lst) {
		listed[l] = true
	}
	for _, c := range present {
		if listed[c] {
			out = append(out, c)
		}
	}
	return out, nil
}

// commitTrailers reads "Key: value" lines of a raw commit's last
// paragraph, the last value of each key (what the hooks append).
func commitTrailers(raw []byte) map[string]string {
	_, msg, _ := strings.Cut(string(raw), "\n\n")
	msg = strings.TrimRight(msg, "\n")
	if i := strings.LastIndex(msg, "\n\n"); i >= 0 {
		msg = msg[i+2:]
	}
	t := map[string]string{}
	for _, l := range strings.Split(msg, "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok && !strings.ContainsAny(k, " \t") {
			t[k] = strings.TrimSpace(v)
		}
	}
	return t
}

// namedObj is one cat-file --batch answer: typ is "" for a missing object.
type namedObj struct {
	sha, typ string
	body     []byte
}

// catNamed runs one cat-file --batch over names and answers in their
// order (catBatch keys by object id, which loses which name was missing).
func catNamed(ctx context.Context, dir string, names []string) ([]namedObj, error) {
	cmd := gitenv.Command(ctx, dir, nil, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(names, "\n") + "\n")
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file --batch: %w", err)
	}
	raw := string(b)
	out := make([]namedObj, len(names))
	for i := range names {
		hdr, rest, ok := strings.Cut(raw, "\n")
		if !ok {
			return nil, fmt.Errorf("git cat-file --batch: %d answers for %d names", i, len(names))
		}
		f := strings.Fields(hdr)
		if len(f) == 2 && (f[1] == "missing" || f[1] == "ambiguous") {
			raw = rest
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file --batch: header %q", hdr)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 0 || n+1 > len(rest) {
			return nil, fmt.Errorf("git cat-file --batch: size %q", f[2])
		}
		out[i] = namedObj{sha: f[0], typ: f[1], body: []byte(rest[:n])}
		raw = rest[n+1:]
	}
	return out, nil
}
