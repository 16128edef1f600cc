package verify

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// Changes to what verify trusts, inside the range (issue 26.2). The run
// reads the config and protocol at the base, so a pull request cannot
// relax this run; but once merged its version is the next range's base.
// A commit of the range that changes the protocol, sessiongate.yaml or the
// allowed-signers file therefore passes only when a person vouched for
// the result with a key the base lists: a signed acceptance of that
// content on the records ref, or a signature on the commit itself. An
// unsigned acceptance, or a row in someone's local database, is anyone's
// word: the agent with a shell can write git objects too.

// trustedPaths are the files whose change needs a person's signature.
func (bl *Baseline) trustedPaths() []string {
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, n := range config.FileNames {
		add(n)
	}
	if bl.ProtocolPath != "" {
		add(bl.ProtocolPath)
	} else {
		for _, p := range protocolHomes {
			add(p)
		}
	}
	if bl.Config != nil {
		if p := bl.Config.Protocol; p != "" {
			add(filepath.ToSlash(p))
		}
		add(bl.Config.Verify.AllowedSigners)
	}
	return out
}

// trustedChanges fails each commit of the range that changed a trusted
// file to content no listed signer vouched for, naming the commit and the
// file; index maps a commit id to its report.
func (t *protocolTrust) trustedChanges(ctx context.Context, rep *Report, index map[string]int) error {
	if t == nil || t.bl == nil || t.bl.Rev == "" {
		return nil // the adoption range: no base to compare with
	}
	changes, err := t.repo.PathChanges(ctx, t.revs, t.bl.trustedPaths())
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	if t.acc == nil {
		t.acc = t.loadAcceptances(ctx)
	}
	signedBy := map[string]string{} // commit -> its listed signer, "" when none
	for _, ch := range changes {
		i, ok := index[ch.Commit]
		if !ok {
			continue
		}
		cr := &rep.Commits[i]
		sha := ""
		if ch.Status != "D" {
			got, err := t.repo.SHA256sAt(ctx, ch.Commit, []string{ch.Path})
			if err != nil {
				return err
			}
			sha = got[ch.Path]
		}
		k := ch.Path + "\x00" + sha
		if why, ok := t.acc.signed[k]; ok {
			cr.Problems = append(cr.Problems, fmt.Sprintf("changes %s (%s): %s", ch.Path, content(sha), why))
			continue
		}
		who, seen := signedBy[ch.Commit]
		if !seen && t.acc.canVerify() {
			if st, s, err := t.repo.CommitSigner(ctx, ch.Commit, t.acc.allowed); err == nil && st == "G" && t.acc.listed(s) {
				who = s
			}
			signedBy[ch.Commit] = who
		}
		if who != "" {
			cr.Problems = append(cr.Problems, fmt.Sprintf("changes %s (%s): the commit is signed by %s, a listed signer", ch.Path, content(sha), who))
			continue
		}
		msg := fmt.Sprintf("commit %s changes %s (%s), which verify trusts from the base %s: a change to the protocol, sessiongate.yaml or the allowed signers passes only with a person's signature: a listed signer (accept_signers, keys in verify.allowed_signers at the base) accepts it with `sessiongate protocol accept --sign` and pushes the records ref, or signs the commit",
			shorten.SHA(ch.Commit), ch.Path, content(sha), shorten.SHA(t.bl.Rev))
		if why, ok := t.acc.unsigned[k]; ok {
			msg += "; " + why + ", which is no proof in CI"
		} else if t.acc.err != "" {
			msg += "; " + t.acc.err
		} else if !t.acc.canVerify() {
			msg += "; the base lists no signer (accept_signers, verify.allowed_signers), so no change can pass: a person sets them up in a change of its own"
		}
		cr.Status = "fail"
		cr.Problems = append(cr.Problems, msg)
		rep.OK = false
	}
	return nil
}

func content(sha string) string {
	if sha == "" {
		return "deleted"
	}
	return "now sha256 " + sha[:min(12, len(sha))]
}
