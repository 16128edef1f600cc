package recordref

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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
	// --raw lists each commit's new blob for the path; merges only unite
	// what their parents wrote (-m off), so each version shows once.
	out, err := git(ctx, dir, nil, nil, "log", "--format=", "--raw", "--no-abbrev", "--no-renames", tip, "--", path)
	if err != nil {
		return nil, nil, fmt.Errorf("list event pins of %s: %w", id, err)
	}
	var blobs []string
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		// ":100644 100644 <old> <new> M\tpath"
		meta, _, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 5 || f[4] == "D" || seen[f[3]] {
			continue
		}
		seen[f[3]] = true
		blobs = append(blobs, f[3])
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
