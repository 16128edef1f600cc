package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
)

// PushRecords pushes the records ref to remote unattended (no prompts),
// merging the remote's records first when it moved (recordref.Push).
func (r *Repo) PushRecords(ctx context.Context, remote, ref string) error {
	_, err := recordref.PushUnattended(ctx, r.root, remote, ref)
	return err
}

// PutRecord writes a session record onto a records ref with git plumbing
// (recordref): the work tree, the index and HEAD are never touched and no
// hook runs. It implements session.RecordRefWriter.
func (r *Repo) PutRecord(ctx context.Context, ref, id string, body []byte) (string, error) {
	if _, err := recordref.Put(ctx, r.root, ref, []recordref.Record{{SessionID: id, Body: body}}); err != nil {
		return "", err
	}
	return recordref.Path(id)
}

// RecordBodies returns every session record on a records ref with one
// ls-tree and one cat-file --batch, however many records the ref holds
// (nil when the ref does not exist). Records over the readers' limit are
// left out.
func (r *Repo) RecordBodies(ctx context.Context, ref string) ([][]byte, error) {
	tip, err := recordref.Tip(ctx, r.root, ref)
	if err != nil || tip == "" {
		return nil, err
	}
	ls, err := run(ctx, r.root, "ls-tree", "-r", "-z", "-l", tip, "--", recordref.Dir)
	if err != nil {
		return nil, fmt.Errorf("list records on %s: %w", ref, err)
	}
	var oids []string
	for _, line := range splitZ(ls) {
		meta, p, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[1] != "blob" || recordref.IDOfPath(p) == "" {
			continue
		}
		if n, err := strconv.Atoi(f[3]); err != nil || n > recordref.MaxRecordBytes {
			continue
		}
		oids = append(oids, f[2])
	}
	if len(oids) == 0 {
		return nil, nil
	}
	cmd := gitenv.Command(ctx, r.root, nil, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(oids, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("read records on %s: %w", ref, err)
	}
	bodies := make([][]byte, 0, len(oids))
	for len(out) > 0 {
		// "<oid> blob <size>\n<content>\n"
		nl := bytes.IndexByte(out, '\n')
		if nl < 0 {
			break
		}
		f := strings.Fields(string(out[:nl]))
		if len(f) != 3 {
			break
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || nl+1+n > len(out) {
			break
		}
		bodies = append(bodies, out[nl+1:nl+1+n])
		out = out[min(len(out), nl+1+n+1):]
	}
	return bodies, nil
}

// PutActorRecord writes who made a commit outside any session onto a
// records ref (recordref.PutActor). It implements session.ActorRecordWriter.
func (r *Repo) PutActorRecord(ctx context.Context, ref string, a snapshot.CommitActor) error {
	_, err := recordref.PutActor(ctx, r.root, ref, a)
	return err
}

// PutAcceptance writes a person's acceptance onto a records ref
// (recordref.PutAcceptance), signed with the user's git signing key when
// sign. It implements session.AcceptanceRepo.
func (r *Repo) PutAcceptance(ctx context.Context, ref string, body []byte, sign bool) (string, error) {
	p, _, err := recordref.PutAcceptance(ctx, r.root, ref, body, sign)
	return p, err
}

// Acceptances returns the acceptances on a records ref (nil when the ref
// does not exist).
func (r *Repo) Acceptances(ctx context.Context, ref string) ([][]byte, error) {
	tip, err := recordref.Tip(ctx, r.root, ref)
	if err != nil || tip == "" {
		return nil, err
	}
	files, err := recordref.ReadAcceptances(ctx, r.root, tip)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(files))
	for i, f := range files {
		out[i] = f.Body
	}
	return out, nil
}

// PutEventPin writes a session's event-chain pin onto a records ref
// (recordref.PutPin); it implements eventpin.Repo.
func (r *Repo) PutEventPin(ctx context.Context, ref string, p snapshot.EventPin) (string, error) {
	return recordref.PutPin(ctx, r.root, ref, p)
}

// PinWitness reads the records ref's tip, the session's pin there and
// HEAD's trailers in one git process (recordref.Witness).
func (r *Repo) PinWitness(ctx context.Context, ref, id string) (snapshot.PinWitness, error) {
	return recordref.Witness(ctx, r.root, ref, id)
}

// PinAt reads the session's pin at records commit at and whether the
// records ref whose commit is tip holds at (recordref.PinAt).
func (r *Repo) PinAt(ctx context.Context, tip, at, id string) (*snapshot.EventPin, bool, error) {
	return recordref.PinAt(ctx, r.root, tip, at, id)
}

// RecordsTip is the records ref's commit ("" when it is missing).
func (r *Repo) RecordsTip(ctx context.Context, ref string) (string, error) {
	return recordref.Tip(ctx, r.root, ref)
}

// EventPin reads a session's newest pin on a records ref (nil when none)
// with one git process: cat-file resolves "<ref>:<path>" itself and says
// "missing" for a ref or path that is not there.
func (r *Repo) EventPin(ctx context.Context, ref, id string) (*snapshot.EventPin, error) {
	if err := recordref.ValidRef(ref); err != nil {
		return nil, err
	}
	return recordref.Pin(ctx, r.root, ref, id)
}

// PushRecordsPinned pushes the records ref to url from a scratch git dir
// with no config of its own and git's global config and redirecting
// variables dropped (recordref.PushPinned): what the agent's config says
// about the remote (pushurl, insteadOf, sshCommand, hooks) is not read.
// urls is RecordsPushURL's list: pushed to each in turn until one holds
// the ref.
func (r *Repo) PushRecordsPinned(ctx context.Context, urls, ref string) error {
	var errs []error
	for _, u := range strings.Split(urls, "\n") {
		res, err := recordref.PushPinned(ctx, r.root, u, ref)
		if err == nil && (res.Pushed || res.Skipped) {
			return nil
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// RecordsPushURL is where records_push's remote is: remote itself when it
// is a URL or a path, else the remote's url and pushurl values as written
// in the config (no insteadOf applied), one a line. A violation's push
// tries each (PushRecordsPinned): a pushurl or insteadOf pointed away, even
// before the session started, leaves the url, which the clone's own
// fetches use.
func (r *Repo) RecordsPushURL(ctx context.Context, remote string) (string, error) {
	if strings.ContainsAny(remote, "/:\\") {
		return remote, nil
	}
	var urls []string
	for _, key := range []string{"url", "pushurl"} {
		cmd := gitenv.Command(ctx, r.root, nil, "config", "--get-all", "remote."+remote+"."+key)
		out, err := cmd.Output()
		if err != nil && key == "url" {
			return "", fmt.Errorf("the URL of remote %q: %w", remote, err)
		}
		for _, u := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if u = strings.TrimSpace(u); u != "" && !slices.Contains(urls, u) {
				urls = append(urls, u)
			}
		}
	}
	return strings.Join(urls, "\n"), nil
}
