package recordref

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/snapshot"
)

// ActorsDir is the folder of the records ref that holds who made a commit
// no session covered: a person (allowed without a session) or a coding
// agent (a BYPASS). One file per commit, actors/<first two hex>/<sha>.json,
// written by the post-commit hook, read by `sessiongate verify` in CI.
const ActorsDir = "actors"

// ActorPath is where a commit's actor record lives on the ref.
func ActorPath(commit string) (string, error) {
	if !isHexID(commit) {
		return "", fmt.Errorf("commit id %q is not 40 or 64 lowercase hex digits", commit)
	}
	return ActorsDir + "/" + commit[:2] + "/" + commit + ".json", nil
}

func isHexID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// PutActor writes a commit's actor record onto ref (one commit, CAS like
// Put). A record already there for the commit is replaced.
func PutActor(ctx context.Context, dir, ref string, rec snapshot.CommitActor) (string, error) {
	if err := ValidRef(ref); err != nil {
		return "", err
	}
	p, err := ActorPath(rec.Commit)
	if err != nil {
		return "", fmt.Errorf("write actor record: %w", err)
	}
	if rec.Actor != snapshot.ActorPerson && rec.Actor != snapshot.ActorAgent {
		return "", fmt.Errorf("write actor record: actor %q is neither %s nor %s", rec.Actor, snapshot.ActorPerson, snapshot.ActorAgent)
	}
	if rec.Version == 0 {
		rec.Version = 1
	}
	body, err := json.Marshal(rec)
	if err != nil {
		return "", fmt.Errorf("write actor record: %w", err)
	}
	if len(body) > snapshot.MaxActorBytes {
		return "", fmt.Errorf("write actor record %s: %d bytes: %w", p, len(body), ErrTooLarge)
	}
	out, err := git(ctx, dir, body, nil, "hash-object", "-w", "--stdin")
	if err != nil {
		return "", fmt.Errorf("write actor record %s: %w", p, err)
	}
	msg := fmt.Sprintf("sessiongate records: %s commit %s\n", rec.Actor, rec.Commit)
	return putBlobs(ctx, dir, ref, map[string]string{p: strings.TrimSpace(out)}, msg)
}

// Actors returns the actor records of commits at records commit tip ("":
// none), by commit id, with one git process however many are asked. A
// commit with no record, or a record that does not parse or names another
// commit, is left out.
func Actors(ctx context.Context, dir, tip string, commits []string) (map[string]snapshot.CommitActor, error) {
	out := map[string]snapshot.CommitActor{}
	if tip == "" || len(commits) == 0 {
		return out, nil
	}
	var in bytes.Buffer
	var asked []string
	for _, c := range commits {
		p, err := ActorPath(c)
		if err != nil {
			continue
		}
		asked = append(asked, c)
		fmt.Fprintf(&in, "%s:%s\n", tip, p)
	}
	if len(asked) == 0 {
		return out, nil
	}
	cmd := gitenv.Command(ctx, dir, nil, "cat-file", "--batch")
	cmd.Stdin = &in
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("read actor records at %.12s: %w", tip, err)
	}
	for _, c := range asked {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, errors.New("read actor records: git cat-file --batch ended early")
		}
		head := strings.Fields(string(b[:nl]))
		b = b[nl+1:]
		if len(head) == 2 && head[1] == "missing" {
			continue
		}
		if len(head) != 3 {
			return nil, fmt.Errorf("read actor records: unexpected line %q", strings.Join(head, " "))
		}
		n, err := strconv.Atoi(head[2])
		if err != nil || n > len(b) {
			return nil, fmt.Errorf("read actor records: bad size in %q", strings.Join(head, " "))
		}
		body := b[:n]
		b = b[min(len(b), n+1):]
		var rec snapshot.CommitActor
		if head[1] != "blob" || n > snapshot.MaxActorBytes || json.Unmarshal(body, &rec) != nil || rec.Commit != c {
			continue
		}
		out[c] = rec
	}
	return out, nil
}

// ActorWriters returns, for each commit's actor record at records commit
// tip, the records commit that last wrote it and git's verdict on its
// signature (one git process). allowedSigners, when set, is the ssh
// allowed-signers file git verifies with.
func ActorWriters(ctx context.Context, dir, tip, allowedSigners string, commits []string) (map[string]Signature, error) {
	out := map[string]Signature{}
	var paths []string
	byPath := map[string]string{}
	for _, c := range commits {
		if p, err := ActorPath(c); err == nil {
			paths = append(paths, p)
			byPath[p] = c
		}
	}
	if tip == "" || len(paths) == 0 {
		return out, nil
	}
	// Newest first: the first commit naming a path wrote its current record.
	err := signedLog(ctx, dir, tip, allowedSigners, nil, paths, func(sig Signature, p string) {
		if c, ok := byPath[p]; ok {
			if _, seen := out[c]; !seen {
				out[c] = sig
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read who wrote the actor records: %w", err)
	}
	return out, nil
}
