package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// What CI re-checks instead of taking the local machine's word: the
// config and protocol are the repository's as committed at the range's
// base (the target branch, which the work under check cannot change), the
// protocol each record names is that one, and, with --rerun, the command
// gates run again here.

// Baseline is the config and protocol a run trusts: as committed at the
// range's base, never from the range being checked (a pull request could
// set missing_trailer: warn, or make the QA command `true`).
type Baseline struct {
	Rev          string         // the commit read ("" = the work tree: no base)
	Config       *config.Config // the config there (defaults when none)
	ConfigFile   string         // its path, "" when the base has none
	ProtocolPath string         // the protocol's path there, "" when none
	ProtocolSHA  string         // hex sha256 of its bytes
	Protocol     []byte
	Note         string // why the base was not used, when it was not
	// Adopted says why the config is another commit's than the range's
	// base, which has none (AdoptedBaseline).
	Adopted string
}

// protocolHomes are where a protocol is looked for without protocol: set.
var protocolHomes = []string{"SESSION-PROTOCOL.md", ".agents/SESSION-PROTOCOL.md", "docs/SESSION-PROTOCOL.md"}

// BaselineAt reads the config and protocol committed at rev. A base
// without a config (the range adopts sessiongate) falls back to the work
// tree's, with a Note saying so.
func BaselineAt(ctx context.Context, repo *gitrepo.Repo, rev string) (*Baseline, error) {
	bl := &Baseline{Rev: rev}
	if rev == "" {
		return workTreeBaseline(repo, "the range has no base commit")
	}
	for _, name := range config.FileNames {
		b, err := repo.ReadAt(ctx, rev, name)
		if errors.Is(err, gitrepo.ErrNoFile) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s at the base %s: %w", name, shorten.SHA(rev), err)
		}
		if bl.Config, err = config.Parse(shorten.SHA(rev)+":"+name, b); err != nil {
			return nil, fmt.Errorf("the config at the base: %w", err)
		}
		bl.ConfigFile = name
		break
	}
	if bl.Config == nil {
		return workTreeBaseline(repo, fmt.Sprintf("the base %s has no sessiongate.yaml (this range adopts sessiongate)", shorten.SHA(rev)))
	}
	homes := protocolHomes
	if bl.Config.Protocol != "" {
		homes = []string{filepath.ToSlash(bl.Config.Protocol)}
	}
	for _, p := range homes {
		b, err := repo.ReadAt(ctx, rev, p)
		if errors.Is(err, gitrepo.ErrNoFile) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read the protocol %s at the base %s: %w", p, shorten.SHA(rev), err)
		}
		sum := sha256.Sum256(b)
		bl.ProtocolPath, bl.ProtocolSHA, bl.Protocol = p, hex.EncodeToString(sum[:]), b
		break
	}
	return bl, nil
}

// isProtocol reports whether sha is the base's protocol: its bytes as
// committed, or as a CRLF checkout has them (eol=crlf, core.autocrlf, a
// Windows clone: git stores the text with LF and the session pinned the
// work tree's bytes; t7). Only a whole CRLF conversion of the committed text
// counts: the same lines, nothing else.
func (bl *Baseline) isProtocol(sha string) bool {
	if sha == "" || bl.ProtocolSHA == "" {
		return false
	}
	if sha == bl.ProtocolSHA {
		return true
	}
	return crlfCheckout(bl.Protocol, sha)
}

// crlfCheckout reports whether sha is the sha256 of committed text b as a
// CRLF checkout writes it: every LF a CRLF, in a text that held no CR.
func crlfCheckout(b []byte, sha string) bool {
	if sha == "" || bytes.IndexByte(b, '\r') >= 0 || bytes.IndexByte(b, '\n') < 0 {
		return false
	}
	sum := sha256.Sum256(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
	return sha == hex.EncodeToString(sum[:])
}

func (bl *Baseline) describe() string {
	if bl.Rev == "" {
		return bl.Note
	}
	s := fmt.Sprintf("config %s and protocol %s as committed at the base %s", orNone(bl.ConfigFile), orNone(bl.ProtocolPath), shorten.SHA(bl.Rev))
	if bl.ProtocolSHA != "" {
		s += fmt.Sprintf(" (protocol sha256 %.12s)", bl.ProtocolSHA)
	}
	if bl.Adopted != "" {
		s += ": " + bl.Adopted
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func workTreeBaseline(repo *gitrepo.Repo, why string) (*Baseline, error) {
	c, err := config.Load(repo.Root())
	if err != nil {
		return nil, err
	}
	return &Baseline{Config: c, Note: why + ": the config is the work tree's and the record's protocol is not compared"}, nil
}

// protocolTrust answers whether a record's protocol sha is the
// repository's, and, when not, where it came from.
type protocolTrust struct {
	repo *gitrepo.Repo
	bl   *Baseline
	revs []string
	// inRange maps sha256 of the protocol's versions committed inside the
	// range to the commit that made each (read on the first mismatch).
	inRange map[string]string
	// recordsTip is the records ref's commit, where acceptances are.
	recordsTip string
	// recordsRef is that ref's name (unchecked stops still on refs of
	// their own are beside it: recordref.StopRefPrefix).
	recordsRef string
	acc        *acceptanceIndex   // read on the first mismatch
	signersDir string             // a temp folder for the base's allowed-signers file
	spec       *protocolspec.Spec // the base's protocol, parsed (notapplicable.go)
	specRead   bool
	floor      *recordref.SchemaFloor // read at the first pre-v2 record (downgrade.go)
	floorErr   error
	clockFloor *recordref.SchemaFloor // read at the first record without clock_version (recordsclock.go)
	clockErr   error
	contFloor  *recordref.SchemaFloor // read at the first continuing record without continues_version (continued.go)
	contErr    error
	// held are the protocols, by sha256, a session ran under that the base
	// held where its work forks, begun before the base changed them
	// (check): a record under one is judged by it (notapplicable.go).
	held map[string]heldProtocol
	// target is the branch the range's work lands on, when the base is
	// where it forks (targetprotocol.go); noFetch: --no-fetch.
	target                  landsOn
	noFetch                 bool
	defaultPush             bool // the range is a push of the default branch (Range.defaultPush)
	targetRead, targetNoted bool
	targetSHA, targetWhy    string
	targetBL                *Baseline // the target's config and protocol (targetTip)
	// forkBases: the merge bases of the base and forkBasesTip, read once
	// (baseMoved).
	forkBases    []string
	forkBasesTip string
}

// landedAhead is how far ahead of verify's clock the time a protocol
// change reached the base (gitrepo.FirstLanded) may lie, for clocks that
// differ a little between machines, before it is taken for no time.
const landedAhead = 10 * time.Minute

// heldProtocol is a protocol the base's history held at commit at.
type heldProtocol struct {
	at   string
	body []byte
	spec *protocolspec.Spec // parsed on first use (recordSpec)
}

// check returns a problem when the session's protocol sha256 is neither the
// base's nor a version a listed signer accepted with a signature, and a
// note when a signed acceptance vouched for it. start is the record's start
// commit: it tells a protocol the base held before a change from one the
// repository never held. startedAt is the record's started_at: a session
// that began before a person's protocol change reached the base keeps the
// protocol it ran under (F2: a change on main failed every branch begun
// before it, and main itself once they merged); one that began after the
// change reached the base (an agent checking out an old commit to run
// under a weaker protocol) fails. The base's first-parent commit that
// brought the change is a person's or the forge's; started_at is
// sessiongate's clock, held to the record's first version on the records
// ref (recordshistory.go).
func (t *protocolTrust) check(ctx context.Context, sha, start, startedAt string) (problem, note string) {
	if t == nil || t.bl == nil || t.bl.ProtocolSHA == "" || sha == "" {
		return "", ""
	}
	if t.bl.isProtocol(sha) {
		return t.targetCheck(ctx, sha, start, startedAt)
	}
	if t.inRange == nil {
		t.inRange = map[string]string{}
		if shas, err := t.repo.PathCommits(ctx, t.revs, t.bl.ProtocolPath); err == nil {
			for _, c := range shas {
				if b, err := t.repo.ReadAt(ctx, c, t.bl.ProtocolPath); err == nil {
					sum := sha256.Sum256(b)
					t.inRange[hex.EncodeToString(sum[:])] = c
				}
			}
		}
	}
	if t.acc == nil {
		t.acc = t.loadAcceptances(ctx)
	}
	// A signature by a listed signer is the one proof CI takes: the policed
	// agent can write git objects, not sign with a person's key.
	if c, ok := t.inRange[sha]; ok && t.acc.canVerify() {
		if st, who, err := t.repo.CommitSigner(ctx, c, t.acc.allowed); err == nil && st == "G" && t.acc.listed(who) {
			return "", fmt.Sprintf("the session ran under protocol sha256 %.12s, accepted by %s's signed commit %s inside this range", sha, who, shorten.SHA(c))
		}
	}
	if why, ok := t.acc.signed[t.bl.ProtocolPath+"\x00"+sha]; ok {
		return "", fmt.Sprintf("the session ran under protocol sha256 %.12s: %s", sha, why)
	}
	msg := fmt.Sprintf("the session ran under protocol sha256 %.12s, not the repository's: %s at the base %s is %.12s", sha, t.bl.ProtocolPath, shorten.SHA(t.bl.Rev), t.bl.ProtocolSHA)
	if why, ok := t.acc.unsigned[t.bl.ProtocolPath+"\x00"+sha]; ok {
		msg += "; " + why + ", which is no proof in CI (anyone with a shell can write git objects): a listed signer (accept_signers at the base) accepts with `protocol accept --sign`, or signs the commit that changes it"
	} else if t.acc.err != "" {
		msg += "; " + t.acc.err
	}
	if c, ok := t.inRange[sha]; ok {
		return msg + fmt.Sprintf("; it is the protocol as changed by %s inside this range: a protocol change binds once it is merged (land it on its own, reviewed), or when a listed signer signs its acceptance, not in the change it would excuse", shorten.SHA(c)), ""
	}
	if at, by := t.heldBefore(ctx, sha, start); at != "" {
		held := fmt.Sprintf("%s as the base's history held it at %s, where this session's work forks from the base", t.bl.ProtocolPath, shorten.SHA(at))
		landed, when, err := t.repo.FirstLanded(ctx, t.bl.Rev, at, t.bl.ProtocolPath)
		started, perr := time.Parse(time.RFC3339Nano, startedAt)
		switch {
		case err != nil || landed == "":
			// git cannot say when the change reached the base: as before.
		case when.After(time.Now().Add(landedAhead)):
			// A committer date ahead of this run's clock is its writer's
			// word, not a time the base held the old protocol until: an
			// agent's protocol change fast-forwarded onto main, dated a
			// month ahead, passed every session begun on the commit
			// before it in that month (TestR53LProtocolLandedForwardDated).
			return msg + fmt.Sprintf("; it is %s, and %s on the base changed it since, but git dates that change %s, ahead of this run's clock (a committer date is its writer's word), so it cannot show the session began before the change reached the base; do the work again in a session started on the base", held, shorten.SHA(landed), when.UTC().Format(time.RFC3339)), ""
		case perr != nil:
			return msg + fmt.Sprintf("; it is %s, and %s on the base changed it since; the record's started_at %q is no time, so it cannot show the session began before the change", held, shorten.SHA(by), startedAt), ""
		case started.Before(when):
			if t.held == nil {
				t.held = map[string]heldProtocol{}
			}
			if _, ok := t.held[sha]; !ok {
				b, _ := t.repo.ReadAt(ctx, at, t.bl.ProtocolPath)
				t.held[sha] = heldProtocol{at: at, body: b}
			}
			return "", fmt.Sprintf("the session ran under protocol sha256 %.12s, %s: it started at %s, before %s brought the change to the base (there by %s), and a record keeps the protocol its session ran under; CI's --rerun runs the base's command gates", sha, held, startedAt, shorten.SHA(landed), when.UTC().Format(time.RFC3339))
		default:
			return msg + fmt.Sprintf("; it is %s, but the session started at %s, after %s brought the change to the base (there by %s): a session started after a protocol change runs under it; merge or rebase onto the base and start a new session there", held, startedAt, shorten.SHA(landed), when.UTC().Format(time.RFC3339)), ""
		}
		return msg + fmt.Sprintf("; it is %s, and %s on the base changed it since: a record keeps the protocol its session ran under, but git cannot tell when the change reached the base; do the work again in a session started on the base", held, shorten.SHA(by)), ""
	}
	return msg + "; the repository never held it in this range (edited before the session and never committed, or a record made elsewhere)", ""
}

// heldBefore reports where the base's history held protocol sha: the merge
// base of the record's start commit and the base, when the protocol there
// is sha, and by, the first commit after it on the base that changed the
// protocol. An honest branch begun before a person changed the protocol on
// main failed with "the repository never held it ... edited before the
// session", which named the agent for the person's change (helper 319, F2).
// "", "" when git cannot tell (a shallow clone, a start this clone lacks).
func (t *protocolTrust) heldBefore(ctx context.Context, sha, start string) (at, by string) {
	if !isHex(start) || t.bl.Rev == "" || t.bl.ProtocolPath == "" {
		return "", ""
	}
	mb, err := t.repo.MergeBase(ctx, start, t.bl.Rev)
	if err != nil || mb == "" {
		return "", ""
	}
	b, err := t.repo.ReadAt(ctx, mb, t.bl.ProtocolPath)
	if err != nil {
		return "", ""
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sha && !crlfCheckout(b, sha) {
		return "", ""
	}
	changes, err := t.repo.PathCommits(ctx, []string{t.bl.Rev, "^" + mb}, t.bl.ProtocolPath)
	if err != nil || len(changes) == 0 {
		return "", ""
	}
	return mb, changes[len(changes)-1] // git log lists the newest first
}

// acceptanceIndex holds the acceptances on the records ref by
// "path\x00sha256": those whose records commit a listed signer signed, and
// the others (reported, never honoured).
type acceptanceIndex struct {
	signed, unsigned map[string]string
	signers          []string // accept_signers at the base
	// anySigner: accept_signers is empty but verify.allowed_signers names
	// the people, so any principal git verifies against that file counts.
	anySigner bool
	allowed   string     // the allowed-signers file verify passes git ("" = git's own)
	err       string     // why acceptances could not be read
	na        naAccepted // acceptances of not-applicable marks (notapplicable.go)
}

func (a *acceptanceIndex) listed(who string) bool {
	return who != "" && (a.anySigner || slices.ContainsFunc(a.signers, func(s string) bool { return strings.EqualFold(s, who) }))
}

// canVerify reports whether any signature could count as a person's.
func (a *acceptanceIndex) canVerify() bool { return a.signers != nil || a.anySigner }

func (t *protocolTrust) loadAcceptances(ctx context.Context) *acceptanceIndex {
	a := &acceptanceIndex{signed: map[string]string{}, unsigned: map[string]string{}}
	if t.bl != nil && t.bl.Config != nil && len(t.bl.Config.AcceptSigners) > 0 {
		a.signers = t.bl.Config.AcceptSigners
	}
	if t.bl != nil && t.bl.Config != nil && t.bl.Config.Verify.AllowedSigners != "" {
		p := t.bl.Config.Verify.AllowedSigners
		b, err := t.repo.ReadAt(ctx, t.bl.Rev, p)
		if err != nil {
			a.err = fmt.Sprintf("verify.allowed_signers %s could not be read at the base %s: %v", p, shorten.SHA(t.bl.Rev), err)
			a.signers = nil
		} else if dir, err := os.MkdirTemp("", "sessiongate-signers-"); err == nil {
			t.signersDir = dir
			a.allowed = filepath.Join(dir, "allowed_signers")
			if err := os.WriteFile(a.allowed, b, 0o600); err != nil {
				a.err, a.signers = "write the allowed signers: "+err.Error(), nil
			} else if a.signers == nil {
				a.anySigner = true
			}
		}
	}
	if t.recordsTip == "" {
		return a
	}
	files, err := recordref.ReadAcceptances(ctx, t.repo.Root(), t.recordsTip)
	if err != nil {
		a.err = err.Error()
		return a
	}
	var sigs map[string][]recordref.Signature
	if len(files) > 0 && a.canVerify() {
		if sigs, err = recordref.AcceptanceSignatures(ctx, t.repo.Root(), t.recordsTip, a.allowed); err != nil {
			a.err = err.Error()
		}
	}
	for _, f := range files {
		acc, err := session.ParseAcceptance(f.Body)
		if err != nil {
			a.addNA(f, sigs)
			continue
		}
		by := ""
		for _, s := range sigs[f.Path] {
			if s.Status == "G" && a.listed(s.Signer) {
				by = fmt.Sprintf("accepted by %s (signed records commit %s, %s; reason: %s)", s.Signer, shorten.SHA(s.Commit), f.Path, oneLine(acc.Reason))
				break
			}
		}
		for _, fl := range acc.Files {
			k := fl.Path + "\x00" + fl.SHA256
			if by != "" {
				a.signed[k] = by
			} else if _, ok := a.unsigned[k]; !ok {
				a.unsigned[k] = fmt.Sprintf("an acceptance (%s) by %s via %s at %s exists, but no signer in accept_signers signed it", f.Path, oneLine(acc.Who), oneLine(acc.Via), acc.AcceptedAt)
			}
		}
	}
	if !a.canVerify() && len(files) > 0 && a.err == "" {
		a.err = "accept_signers and verify.allowed_signers are empty at the base, so no acceptance counts as a person's"
	}
	return a
}

func (t *protocolTrust) close() {
	if t != nil && t.signersDir != "" {
		os.RemoveAll(t.signersDir)
	}
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// startEventAt returns the time of the record's first start event
// (session.TokStartPath and its kin, written in the start's transaction
// with the session's created_at), "" when the record holds none (shed for
// size, or older). A session row's created_at moved back in the agent's
// database after the start (UPDATE sessions) reached every version of the
// record on the ref, so only the events, dated when they were written,
// tell (helper 322).
func startEventAt(evs []snapshot.EventRef) string {
	for _, ev := range evs {
		switch ev.Token {
		case session.TokStartPath, session.TokStartPrograms, session.TokStartHooksDir, session.TokStartUserConfig:
			return ev.At
		}
	}
	return ""
}

// laterTime returns the later of two RFC 3339 times, a when b is no time;
// a (unparsed) when a is no time, so the caller says so.
func laterTime(a, b string) string {
	ta, err := time.Parse(time.RFC3339Nano, a)
	if err != nil {
		return a
	}
	if tb, err := time.Parse(time.RFC3339Nano, b); err == nil && tb.After(ta) {
		return b
	}
	return a
}
