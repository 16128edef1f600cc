package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/protect"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
	"github.com/sessiongate/sessiongate/snapshot"
)

// DefaultProtectedPaths are the files that decide how a session is
// policed besides the protocol (protect.DefaultPaths).
var DefaultProtectedPaths = protect.DefaultPaths

// defaultProtocolPaths are protected when no protocol path is known.
var defaultProtocolPaths = protect.DefaultProtocolPaths

// ProtectedPaths returns the repository-relative paths and globs that the
// agent being policed must not change during a session (issue 17.4): the
// protocol document (protocolPath, else cfg.ProtocolPath, else both default
// locations), DefaultProtectedPaths and the config's protected_paths
// (protect.Paths says how they are written and matched). It returns nil
// when protection is off (protect: false).
//
// protocolPath may be absolute (it is then made relative to nothing and
// used only when relative; pass a repository-relative path).
func ProtectedPaths(cfg Config, protocolPath string) []string {
	if !cfg.Protect {
		return nil
	}
	return protect.Paths(protocolPath, cfg.ProtocolPath, cfg.ProtectedPaths)
}

// IsProtected reports whether rel, a path relative to the worktree root
// (slashes or the OS separator; "./" allowed), is one of the files the
// policed agent may not change: the agent hook runtime denies Write/Edit
// on it, and pre-commit reports a change to it as a PROTECTED_CHANGE
// violation unless a person ran `sessiongate protocol accept`. Matching is
// case-insensitive (macOS and Windows file systems are), so denying errs on
// the safe side. An absolute path or one that leaves the repository
// returns false: make it relative first (ProtectedRel does, following
// symlinks). Always false with protect: false.
func (e *Engine) IsProtected(rel string) bool {
	return protect.Match(ProtectedPaths(e.Config, ""), rel)
}

// ProtectedRel turns p (absolute, or relative to the worktree root) into a
// worktree-relative path, following symlinks so that a link to a protected
// file counts as that file, and reports whether it is protected. A path
// outside root returns ("", false).
func (e *Engine) ProtectedRel(root, p string) (string, bool) {
	return protect.Rel(ProtectedPaths(e.Config, ""), root, p)
}

// ProtectedBelow reports whether the folder rel (worktree-relative; "" or
// "." for the root) holds a protected file: `rm -rf .claude` removes
// .claude/settings.json as surely as `rm .claude/settings.json`.
func (e *Engine) ProtectedBelow(rel string) bool {
	return protect.Below(ProtectedPaths(e.Config, ""), rel)
}

// Sources of a trusted content.
const (
	// TrustFirstUse: the content found when the repository was first
	// protected (trust on first use).
	TrustFirstUse = "first_use"
	// TrustAccept: a person ran `sessiongate protocol accept`.
	TrustAccept = "accept"
)

// CodeProtectedChange is the violation of a protected file changed without
// a person's acceptance.
const CodeProtectedChange = "PROTECTED_CHANGE"

// Event tokens of protection.
const (
	TokProtectAccept   = "protect:accept"
	TokProtectFirstUse = "protect:first_use"
	// TokProtectBlocked (+ ":" + the call) is a gate call refused because
	// a protected file changed.
	TokProtectBlocked = "protect:blocked"
)

// ErrProtectedChanged: a protected file's content is not one a person
// accepted. Adapters map it to exit 1 (blocked).
var ErrProtectedChanged = errors.New("protected files changed without a person's acceptance")

// TrustedFile is one accepted content of a protected file.
type TrustedFile struct {
	ID        int64     `json:"id"`
	RepoID    int64     `json:"repo_id"`
	Path      string    `json:"path"`   // repository-relative, slashes
	SHA256    string    `json:"sha256"` // hex sha256 of the content; "" = absent
	Source    string    `json:"source"` // TrustFirstUse or TrustAccept
	Who       string    `json:"who"`    // "Name <email> (user)"
	Reason    string    `json:"reason"`
	Via       string    `json:"via"`        // how accept ran: "terminal" or "non-interactive (--yes)"
	SessionID string    `json:"session_id"` // the worktree's active session then, if any
	CreatedAt time.Time `json:"created_at"`
}

// ProtectedChange is a protected file whose content no person accepted.
type ProtectedChange = protect.Change

// AcceptStep is the command a person runs to accept protected changes.
const AcceptStep = "a person reviews the change and runs `sessiongate protocol accept --reason \"...\"` at a terminal (or reverts it with `git checkout -- FILE`)"

// protection returns the patterns to enforce for a repository and its
// trusted contents. With protect: false the patterns are nil, unless the
// config file that says so is itself an unaccepted change: an agent cannot
// switch protection off by editing the config.
func (e *Engine) protection(ctx context.Context, root string, repoID int64) ([]string, map[string][]string, error) {
	return e.protectionAt(ctx, root, repoID, "")
}

// protectionAt is protection with the accepted contents' stamp read with
// the session: the contents come from the cache while it is unchanged.
func (e *Engine) protectionAt(ctx context.Context, root string, repoID int64, stamp string) ([]string, map[string][]string, error) {
	trusted := map[string][]string{}
	if repoID != 0 {
		var err error
		if trusted, err = e.acceptedContents(ctx, repoID, stamp); err != nil {
			return nil, nil, err
		}
	}
	if e.Config.Protect {
		return ProtectedPaths(e.Config, ""), trusted, nil
	}
	if len(trusted) == 0 {
		return nil, trusted, nil
	}
	for _, name := range []string{"sessiongate.yaml", ".sessiongate.yaml"} {
		if _, known := trusted[name]; !known {
			continue
		}
		if !slices.Contains(trusted[name], protect.Hash(root, name)) {
			cfg := e.Config
			cfg.Protect = true
			return ProtectedPaths(cfg, ""), trusted, nil
		}
	}
	return nil, trusted, nil
}

// ProtectedChanges compares a worktree's protected files with the contents
// a person accepted. When the repository has no accepted content yet and
// protection is on, the committed contents are recorded as accepted (first
// use; committedState) and what differs from them is reported.
func (e *Engine) ProtectedChanges(ctx context.Context, repo Repo) ([]ProtectedChange, error) {
	var repoID int64
	if r, err := e.Store.RepositoryByRoot(ctx, repo.MainRoot()); err == nil {
		repoID = r.ID
	} else if !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("look up repository: %w", err)
	}
	patterns, trusted, err := e.protection(ctx, repo.Root(), repoID)
	if err != nil || len(patterns) == 0 {
		return nil, err
	}
	if len(trusted) == 0 {
		state, err := committedState(ctx, repo, protect.State(repo.Root(), patterns, trusted))
		if err != nil {
			return nil, err
		}
		unrec, err := e.unrecordedRules(ctx, repo, state)
		if err != nil {
			return nil, err
		}
		for p := range unrec {
			delete(state, p) // not trusted: a person accepts it
		}
		if err := e.trustFirstUse(ctx, repo, state); err != nil {
			return nil, err
		}
		if trusted, err = e.trustedContents(ctx, repo); err != nil {
			return nil, err
		}
	}
	changes, err := e.currentChanges(ctx, repo, patterns, trusted, time.Time{})
	if err != nil {
		return nil, err
	}
	// A committed protected file with no accepted content at all may be one
	// first use refused: say why (asked only then).
	cand := map[string]string{}
	for _, c := range changes {
		if len(c.Trusted) == 0 && c.SHA256 != "" && !c.Staged {
			cand[c.Path] = c.SHA256
		}
	}
	if len(cand) > 0 {
		// Only a content HEAD holds: a file created and not committed is a
		// change of its own, with its own message.
		head, err := repo.CommittedSHA256(ctx, slices.Sorted(maps.Keys(cand)))
		if err != nil {
			return nil, fmt.Errorf("read the committed protected files: %w", err)
		}
		maps.DeleteFunc(cand, func(p, sha string) bool { return head[p] != sha && !checkoutOf(repo.Root(), p, sha, head[p]) })
	}
	if len(cand) > 0 {
		unrec, err := e.unrecordedRules(ctx, repo, cand)
		if err != nil {
			return nil, err
		}
		for i := range changes {
			if why, ok := unrec[changes[i].Path]; ok && changes[i].SHA256 == cand[changes[i].Path] && !changes[i].Staged {
				changes[i].Unrecorded = why
			}
		}
	}
	return changes, nil
}

// isProtocolPath reports whether rel is where the repository keeps its
// protocol (the config's protocol:, else the default homes).
func isProtocolPath(cfg Config, rel string) bool {
	own := defaultProtocolPaths
	if cfg.ProtocolPath != "" {
		own = []string{cfg.ProtocolPath}
	}
	return slices.ContainsFunc(own, func(p string) bool {
		return strings.EqualFold(strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "./"), rel)
	})
}

// configNames are sessiongate.yaml's names, in the order config looks them up.
var configNames = []string{"sessiongate.yaml", ".sessiongate.yaml"}

// unrecordedRules is first use's check against the records ref (lazy-agent
// pass 26): first use trusts what HEAD holds, and a database is new
// whenever the agent's shell names one (SESSIONGATE_DB=/tmp/x.db, --db) or
// deletes it; an agent that committed a weakened protocol or config (a
// person's commit between sessions, or commit-tree and update-ref) then
// had it trusted. When the records ref holds records, the protocol and the
// config a new database trusts must be ones an earlier session on the ref
// ran under (the protocol_sha256 of its snapshots, or the file at its start
// commit, which a start refuses to differ from what was accepted) or ones an
// acceptance on the ref names; otherwise a person accepts them. It returns,
// for each such file of state that none names, why. No records ref, or no
// record on it (a repository's first sessions, a clone that did not fetch
// it), is no answer: first use trusts HEAD as before. Read only on first
// use and on a refused file, never on an ordinary gate call.
func (e *Engine) unrecordedRules(ctx context.Context, repo Repo, state map[string]string) (map[string]string, error) {
	ref := e.Config.SessionRecord
	// Only the files a session would load: the config's protocol, else the
	// first default home that exists (a second, unused copy ran no
	// session), and the first config name that exists.
	own := defaultProtocolPaths
	if e.Config.ProtocolPath != "" {
		own = []string{e.Config.ProtocolPath}
	}
	var ask []string
	for _, names := range [][]string{own, configNames} {
		for _, o := range names {
			o = strings.TrimPrefix(path.Clean(filepath.ToSlash(o)), "./")
			if protect.Hash(repo.Root(), o) == "" && state[o] == "" {
				continue
			}
			if state[o] != "" {
				ask = append(ask, o)
			}
			break
		}
	}
	// The other protected files (hook, MCP and pre-commit configs, the
	// config's protected_paths) HEAD holds: a start is refused while they
	// differ from what was accepted too.
	for p, sha := range state {
		if sha != "" && !slices.Contains(configNames, p) && !slices.ContainsFunc(own, func(o string) bool {
			return strings.TrimPrefix(path.Clean(filepath.ToSlash(o)), "./") == p
		}) {
			ask = append(ask, p)
		}
	}
	slices.Sort(ask)
	if !IsRecordRef(ref) || len(ask) == 0 {
		return nil, nil
	}
	bodies, err := repo.RecordBodies(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ref, err)
	}
	ran := map[string]bool{}
	type start struct{ commit, at string }
	var starts []start
	for _, b := range bodies {
		var rec snapshot.Record
		if json.Unmarshal(b, &rec) != nil {
			continue
		}
		for _, sn := range rec.Snapshots {
			if sn.State.ProtocolSHA256 != "" {
				ran[sn.State.ProtocolSHA256] = true
			}
		}
		if rec.Session != nil && rec.Session.StartCommit != "" {
			starts = append(starts, start{rec.Session.StartCommit, rec.Session.StartedAt})
		}
	}
	if len(bodies) == 0 {
		return nil, nil
	}
	accepted := map[string]bool{}
	accs, err := repo.Acceptances(ctx, e.Config.AcceptanceRef())
	if err != nil {
		return nil, fmt.Errorf("read the acceptances on %s: %w", e.Config.AcceptanceRef(), err)
	}
	for _, b := range accs {
		if a, err := ParseAcceptance(b); err == nil {
			for _, f := range a.Files {
				accepted[f.Path+"\x00"+f.SHA256] = true
			}
		}
	}
	// The work tree's bytes too: a CRLF checkout's spec is hashed as read.
	// And those bytes with CRLF -> LF undone: git's own text of a CRLF
	// checkout, which records made on LF checkouts hold (round 55: a
	// Windows clone of a team whose sessions ran on Linux could start no
	// session under a new database). It matches only what the LF work
	// tree's hash already would.
	shas := func(p string) []string {
		out := []string{state[p], protect.Hash(repo.Root(), p)}
		if b, err := readWorkFile(repo.Root(), p); err == nil && bytes.Contains(b, []byte("\r\n")) {
			lf := sha256.Sum256(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")))
			out = append(out, hex.EncodeToString(lf[:]))
		}
		return out
	}
	var left []string
	for _, p := range ask {
		if !slices.ContainsFunc(shas(p), func(s string) bool {
			return s != "" && (isProtocolPath(e.Config, p) && ran[s] || accepted[p+"\x00"+s])
		}) {
			left = append(left, p)
		}
	}
	// The files at the recorded sessions' start commits, newest first, one
	// git process per commit, at most maxStartReads (a commit this clone
	// lacks is skipped).
	at, ok := repo.(interface {
		SHA256sAt(ctx context.Context, rev string, paths []string) (map[string]string, error)
	})
	slices.SortFunc(starts, func(a, b start) int { return strings.Compare(b.at, a.at) })
	seen := map[string]bool{}
	for _, st := range starts {
		if !ok || len(left) == 0 || len(seen) >= maxStartReads {
			break
		}
		if seen[st.commit] {
			continue
		}
		seen[st.commit] = true
		got, err := at.SHA256sAt(ctx, st.commit, left)
		if err != nil {
			continue
		}
		left = slices.DeleteFunc(left, func(p string) bool {
			return got[p] != "" && slices.Contains(shas(p), got[p])
		})
	}
	out := map[string]string{}
	for _, p := range left {
		out[p] = fmt.Sprintf("no session on %s ran under it (%d record(s) read) and no acceptance there names it: a new database (deleted, or named by --db/SESSIONGATE_DB) trusts a committed protected file only when the records ref does", ref, len(bodies))
	}
	return out, nil
}

// maxStartReads bounds the start commits first use reads the files at.
const maxStartReads = 100

// committedState is what first use trusts: for every protected file HEAD
// has (or had: a deleted one), its committed content, never the work
// tree's. An agent that replaces the protocol in the work tree before the
// first session (or after deleting the database, which starts first use
// again) must not get its version trusted: the edit then shows as a change
// like any other, and the start is refused until it is committed or a
// person accepts it. A file HEAD does not have is trusted as found (an
// unborn repository, or `sessiongate init` before the first commit):
// nothing committed says otherwise.
func committedState(ctx context.Context, repo Repo, state map[string]string) (map[string]string, error) {
	head, err := repo.CommittedSHA256(ctx, slices.Sorted(maps.Keys(state)))
	if err != nil {
		return nil, fmt.Errorf("read the committed protected files: %w", err)
	}
	out := maps.Clone(state)
	for p, sha := range head {
		if sha != "" && !checkoutOf(repo.Root(), p, state[p], sha) {
			out[p] = sha
		}
	}
	return out, nil
}

// checkoutOf reports whether the work tree's file rel, whose sha256 is
// worktreeSHA, is the committed content committedSHA in the checkout's
// line ends: git stores text LF and checks it out CRLF under eol=crlf,
// core.autocrlf or a Windows clone, so the bytes differ while the text is
// the one committed (t7: every honest session start on such a checkout
// was refused as a protected change). Only CRLF -> LF is undone: no git
// filter runs (a smudge filter is a command the agent could configure),
// and any other byte that differs is a change.
func checkoutOf(root, rel, worktreeSHA, committedSHA string) bool {
	if worktreeSHA == "" || worktreeSHA == committedSHA {
		return false
	}
	if _, ok, err := repopath.Resolve(root, rel); err != nil || !ok {
		return false
	}
	b, err := readWorkFile(root, rel) // a file not read is a change, never "the same"
	if err != nil || !bytes.Contains(b, []byte("\r\n")) {
		return false
	}
	sum := sha256.Sum256(b)
	if hex.EncodeToString(sum[:]) != worktreeSHA {
		return false // changed since it was hashed
	}
	lf := sha256.Sum256(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")))
	return hex.EncodeToString(lf[:]) == committedSHA
}

// trustedContents loads a repository's accepted contents by path.
func (e *Engine) trustedContents(ctx context.Context, repo Repo) (map[string][]string, error) {
	r, err := e.Store.RepositoryByRoot(ctx, repo.MainRoot())
	if err != nil {
		return nil, fmt.Errorf("look up repository: %w", err)
	}
	rows, err := e.Store.TrustedFiles(ctx, r.ID)
	if err != nil {
		return nil, fmt.Errorf("load accepted protected files: %w", err)
	}
	return trustedOf(rows), nil
}

// firstUseMark tags a content accepted only by first-use rows
// (protect.FirstUseMark).
const firstUseMark = protect.FirstUseMark

// trustedOf maps rows to accepted contents by path. A content accepted
// only by first-use rows is listed a second time with firstUseMark in
// front, which no real content equals.
func trustedOf(rows []TrustedFile) map[string][]string {
	trusted := map[string][]string{}
	accepted := map[string]bool{}
	for _, r := range rows {
		if r.Source != TrustFirstUse {
			accepted[r.Path+"\x00"+r.SHA256] = true
		}
	}
	for _, r := range rows {
		if !slices.Contains(trusted[r.Path], r.SHA256) {
			trusted[r.Path] = append(trusted[r.Path], r.SHA256)
		}
		if m := firstUseMark + r.SHA256; r.Source == TrustFirstUse && !accepted[r.Path+"\x00"+r.SHA256] && !slices.Contains(trusted[r.Path], m) {
			trusted[r.Path] = append(trusted[r.Path], m)
		}
	}
	return trusted
}

// currentChanges lists the protected files whose content in the work tree
// or in the index (a staged change, when the repository can tell) is not
// accepted.
// A content accepted only by a database row that git does not back is not
// accepted (backTrust).
//
// since is the running session's start (zero outside one): a sparse
// checkout whose patterns changed at or after it does not excuse a
// protected file it leaves out (sparseContents).
func (e *Engine) currentChanges(ctx context.Context, repo Repo, patterns []string, trusted map[string][]string, since time.Time) ([]ProtectedChange, error) {
	state := protect.State(repo.Root(), patterns, trusted)
	// Sorted: the same list in the same order on every call, so gitrepo's
	// staged cache keys it without sorting it again.
	pats := append(slices.Clone(patterns), slices.Sorted(maps.Keys(trusted))...)
	staged, err := repo.StagedProtected(ctx, pats)
	if err != nil {
		return nil, fmt.Errorf("read staged protected files: %w", err)
	}
	trusted, dropped, err := e.backTrust(ctx, repo, []map[string]string{state, staged}, trusted)
	if err != nil {
		return nil, err
	}
	if err := sparseContents(ctx, repo, state, trusted, since); err != nil {
		return nil, err
	}
	changes := protect.Diff(state, trusted)
	for _, c := range protect.Diff(staged, trusted) {
		if !slices.ContainsFunc(changes, func(x ProtectedChange) bool { return x.Path == c.Path && x.SHA256 == c.SHA256 }) {
			c.Staged = true
			changes = append(changes, c)
		}
	}
	for i := range changes {
		if sha, ok := dropped[changes[i].Path]; ok && sha == changes[i].SHA256 {
			changes[i].Unbacked = true
		}
	}
	// A protected file git no longer compares (update-index flags) or
	// commits through a clean filter: its committed content can differ from
	// the accepted one while the file itself matches. A person's accept
	// cannot clear this; undoing the flag or the filter does.
	hidden, err := repo.HiddenFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("read files git hides: %w", err)
	}
	for _, p := range slices.Sorted(maps.Keys(hidden)) {
		if _, known := trusted[p]; known || protect.Match(pats, p) {
			changes = append(changes, ProtectedChange{Path: p, SHA256: protect.Hash(repo.Root(), p), Trusted: trusted[p], Hidden: hidden[p]})
		}
	}
	return changes, nil
}

// sparseContents gives an accepted protected file that a sparse
// checkout leaves out of the work tree its committed content in state:
// it is absent, not deleted, and git commits it as indexed (a change
// staged to it is StagedProtected's). Asked only for files that would
// otherwise read as deleted, so an ordinary gate call runs no git for it.
func sparseContents(ctx context.Context, repo Repo, state map[string]string, trusted map[string][]string, since time.Time) error {
	var gone []string
	for p, sha := range state {
		if acc, known := trusted[p]; sha == "" && known && !slices.Contains(acc, "") {
			gone = append(gone, p)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	slices.Sort(gone)
	left, err := repo.SparseLeftOut(ctx, gone, since)
	if err != nil {
		return fmt.Errorf("read which protected files the sparse checkout leaves out: %w", err)
	}
	if len(left) == 0 {
		return nil
	}
	head, err := repo.CommittedSHA256(ctx, slices.Sorted(maps.Keys(left)))
	if err != nil {
		return fmt.Errorf("read the committed protected files: %w", err)
	}
	for p := range left {
		if sha := head[p]; sha != "" {
			state[p] = sha
		}
	}
	return nil
}

// trustFirstUse records the current contents as accepted when the
// repository has none yet (checked again inside the transaction).
func (e *Engine) trustFirstUse(ctx context.Context, repo Repo, state map[string]string) error {
	err := e.Store.Update(ctx, func(w Writer) error {
		r, err := w.EnsureRepository(ctx, repo.MainRoot(), repo.Name())
		if err != nil {
			return err
		}
		rows, err := w.TrustedFiles(ctx, r.ID)
		if err != nil || len(rows) > 0 {
			return err
		}
		for _, p := range slices.Sorted(maps.Keys(state)) {
			if err := w.AddTrustedFile(ctx, &TrustedFile{RepoID: r.ID, Path: p, SHA256: state[p], Source: TrustFirstUse, Via: "first use, as committed", CreatedAt: e.now()}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record protected files (first use): %w", err)
	}
	return nil
}

// refuseProtected records, once per distinct set of changes, a repository
// violation for a start refused because of unaccepted protected changes,
// and returns the error that refuses it.
func (e *Engine) refuseProtected(ctx context.Context, repo Repo, changes []ProtectedChange) error {
	msgs := make([]string, len(changes))
	for i, c := range changes {
		msgs[i] = c.String()
	}
	if err := e.recordRefusedStart(ctx, repo, truncate("session start refused: "+strings.Join(msgs, "; "), 1000)); err != nil {
		return err
	}
	return fmt.Errorf("%w: %s; a session keeps the protocol and config a person accepted, so it cannot start under these: %s",
		ErrProtectedChanged, strings.Join(msgs, "; "), AcceptStep)
}

// foreignProtocol refuses a session start whose protocol is not the
// repository's own while protection is on: --protocol and
// SESSIONGATE_PROTOCOL may name the repository's protocol (or a copy with
// the same bytes), but not a document of the starter's choosing, which
// would let the policed agent pick its own gates (a one-phase OPTIONAL
// protocol in /tmp passes everything, and its record passes verify). The
// repository's own protocol is the config's protocol:, else the default
// locations; a repository that has none keeps its protocol elsewhere, and
// that is the starter's choice.
func (e *Engine) foreignProtocol(ctx context.Context, repo Repo, spec *protocolspec.Spec) error {
	var repoID int64
	if r, err := e.Store.RepositoryByRoot(ctx, repo.MainRoot()); err == nil {
		repoID = r.ID
	} else if !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("look up repository: %w", err)
	}
	patterns, _, err := e.protection(ctx, repo.Root(), repoID)
	if err != nil || len(patterns) == 0 {
		return err
	}
	own := defaultProtocolPaths
	if e.Config.ProtocolPath != "" {
		own = []string{e.Config.ProtocolPath}
	}
	var found []string
	for _, p := range own {
		p = strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "./")
		if path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		switch h := protect.Hash(repo.Root(), p); h {
		case "":
		case spec.SHA256:
			return nil
		default:
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		return nil
	}
	name := spec.File
	if name == "" {
		name = "(unnamed)"
	}
	msg := truncate(fmt.Sprintf("session start refused: the protocol %s (sha256 %s) is not the repository's protocol %s",
		name, shortHash(spec.SHA256), strings.Join(found, ", ")), 1000)
	if err := e.recordRefusedStart(ctx, repo, msg); err != nil {
		return err
	}
	return fmt.Errorf("%w: %s: a session runs under the protocol a person accepted, never one the starter names; "+
		"start it without --protocol and SESSIONGATE_PROTOCOL (a person who wants another protocol puts it at %s and runs `sessiongate protocol accept`)",
		ErrProtectedChanged, msg, found[0])
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// recordRefusedStart records a refused session start as a HIGH
// PROTECTED_CHANGE violation of the repository, once per distinct message.
func (e *Engine) recordRefusedStart(ctx context.Context, repo Repo, msg string) error {
	err := e.Store.Update(ctx, func(w Writer) error {
		r, err := w.EnsureRepository(ctx, repo.MainRoot(), repo.Name())
		if err != nil {
			return err
		}
		vs, err := w.ListViolations(ctx, ViolationFilter{RepoID: r.ID, Code: CodeProtectedChange, Limit: 20})
		if err != nil {
			return err
		}
		for _, v := range vs {
			if v.SessionID == "" && v.Message == msg {
				return nil
			}
		}
		return w.AddViolation(ctx, &Violation{RepoID: r.ID, Requirement: "protected files", Severity: SeverityHigh,
			Code: CodeProtectedChange, Window: WindowSession, Message: msg, CreatedAt: e.now()})
	})
	if err != nil {
		return fmt.Errorf("record protected change: %w", err)
	}
	return nil
}

// AcceptRequest is a person accepting the current protected files.
type AcceptRequest struct {
	Repo   Repo
	Who    string // "Name <email> (user)"
	Reason string
	Via    string // "terminal" or "non-interactive (--yes)"
	// Sign signs the acceptance's commit on the records ref with the
	// person's git signing key: what verify takes as proof in CI.
	Sign bool
	// SignedCommit is the signed commit of the work that vouched for the
	// files (--signed-commit), recorded in the acceptance.
	SignedCommit string
}

// AcceptProtected records the current content of every changed protected
// file as accepted, with who, why and how, and appends protect:accept to
// the worktree's active session. A running session keeps the protocol it
// pinned; the accepted version applies from the next session on. It
// returns the changes it accepted (none when nothing changed).
func (e *Engine) AcceptProtected(ctx context.Context, req AcceptRequest) ([]ProtectedChange, error) {
	reason := strings.TrimSpace(req.Reason)
	if reason == "" {
		return nil, invalidf("a reason is required: say why the change is accepted (--reason)")
	}
	changes, err := e.ProtectedChanges(ctx, req.Repo)
	if err != nil || len(changes) == 0 {
		return nil, err
	}
	// Git first: a database row without its acceptance in git trusts
	// nothing, so a failed write must leave no row.
	files := make([]AcceptedFile, len(changes))
	for i, c := range changes {
		files[i] = AcceptedFile{Path: c.Path, SHA256: c.SHA256}
	}
	if err := e.putAcceptance(ctx, req.Repo, files, req.Who, reason, req.Via, req.SignedCommit, req.Sign); err != nil {
		return nil, fmt.Errorf("record acceptance: %w", err)
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		r, err := w.EnsureRepository(ctx, req.Repo.MainRoot(), req.Repo.Name())
		if err != nil {
			return err
		}
		sid := ""
		if s, err := w.ActiveSession(ctx, r.ID, req.Repo.Root()); err == nil {
			sid = s.ID
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		now := e.now()
		for _, c := range changes {
			if err := w.AddTrustedFile(ctx, &TrustedFile{RepoID: r.ID, Path: c.Path, SHA256: c.SHA256, Source: TrustAccept,
				Who: truncate(req.Who, 200), Reason: truncate(reason, 500), Via: req.Via, SessionID: sid, CreatedAt: now}); err != nil {
				return err
			}
		}
		if sid == "" {
			return nil
		}
		detail, err := json.Marshal(map[string]any{"who": truncate(req.Who, 200), "via": req.Via, "reason": truncate(reason, 200), "files": changes})
		if err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: sid, Token: TokProtectAccept, Detail: truncate(string(detail), 2000), CreatedAt: now})
	})
	if err != nil {
		return nil, fmt.Errorf("record acceptance: %w", err)
	}
	return changes, nil
}

// checkProtectedCommit blocks a commit of a session while a protected file
// differs from what a person accepted, in the worktree (hooks read the
// config from there) or in the change being committed. Each distinct
// change is recorded once per session as a PROTECTED_CHANGE violation.
func (e *Engine) checkProtectedCommit(ctx context.Context, d *HookDecision, s *Session, req HookRequest) (*Violation, error) {
	at := ""
	if len(req.Landed) > 1 {
		// A hooks-off commit with later ones of the same call after it:
		// the work tree holds theirs, so the commit is judged on its tree.
		at = req.Landed[0]
	}
	why, vio, err := e.sessionProtectedAt(ctx, s, req.Repo, at)
	if err != nil || why == "" {
		return nil, err
	}
	d.block("protected files", AcceptStep, why)
	return vio, nil
}

// sessionProtected lists a running session's protected files that differ
// from what a person accepted (work tree or index) as one sentence, and the
// violation to record: nil when the session already has it (one per
// distinct change, whichever gate or hook saw it first). why is "" when
// nothing changed.
func (e *Engine) sessionProtected(ctx context.Context, s *Session, repo Repo) (why string, vio *Violation, err error) {
	return e.sessionProtectedAt(ctx, s, repo, "")
}

// sessionProtectedAt is sessionProtected for the tree of commit at ("" the
// work tree and index): a change the work tree shows counts only when the
// commit's content of that path is not an accepted one. Judging the first
// of two hooks-off commits of one shell line (`git commit -m a && git
// commit -m b`), the protocol edit the second made was charged to the
// first (TestHooksOffEveryCommitOfTheCall).
func (e *Engine) sessionProtectedAt(ctx context.Context, s *Session, repo Repo, at string) (why string, vio *Violation, err error) {
	why, vio, _, err = e.sessionProtectedChanges(ctx, s, repo, at)
	return why, vio, err
}

// sessionProtectedChanges is sessionProtectedAt that also returns the
// changes the sentence lists (ProtectContentToken names them).
func (e *Engine) sessionProtectedChanges(ctx context.Context, s *Session, repo Repo, at string) (why string, vio *Violation, changes []ProtectedChange, err error) {
	patterns, trusted, err := e.protectionAt(ctx, repo.Root(), s.RepoID, s.TrustedStamp)
	if err != nil || len(patterns) == 0 || len(trusted) == 0 {
		return "", nil, nil, err
	}
	changes, err = e.currentChanges(ctx, repo, patterns, trusted, s.CreatedAt)
	if err != nil || len(changes) == 0 {
		return "", nil, nil, err
	}
	if at != "" {
		changes = slices.DeleteFunc(changes, func(c ProtectedChange) bool {
			if c.Hidden != "" {
				return false // git's view of it is not the file's: kept
			}
			sum := ""
			if ok, err := repo.ExistsAt(ctx, at, c.Path); err != nil {
				return false // unreadable: kept, fail closed
			} else if ok {
				b, err := repo.ReadAt(ctx, at, c.Path)
				if err != nil {
					return false
				}
				h := sha256.Sum256(b)
				sum = hex.EncodeToString(h[:])
			}
			c.SHA256 = sum
			return slices.Contains(c.Trusted, sum) || sum == "" && len(c.Trusted) == 0
		})
		if len(changes) == 0 {
			return "", nil, nil, nil
		}
	}
	msgs := make([]string, len(changes))
	for i, c := range changes {
		msgs[i] = c.String()
	}
	why = "protected files changed during the session without a person's acceptance: " + strings.Join(msgs, "; ")
	msg := truncate(why, 1000)
	vs, err := e.Store.ListViolations(ctx, ViolationFilter{SessionID: s.ID, Code: CodeProtectedChange, Limit: 50})
	if err != nil {
		return "", nil, nil, fmt.Errorf("load violations: %w", err)
	}
	for _, v := range vs {
		if v.Message == msg {
			return why, nil, changes, nil
		}
	}
	return why, &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Requirement: "protected files", Severity: SeverityHigh,
		Code: CodeProtectedChange, Window: WindowSession, Message: msg, CreatedAt: e.now()}, changes, nil
}

// guardProtected refuses a gate call (validate, advance, end, an agent's
// stop) while the session's protected files differ from what a person
// accepted, and records the change as a PROTECTED_CHANGE violation. Gates
// read their commands from sessiongate.yaml and their rules from the
// protocol: checked here, before any gate runs, an edit of either in the
// work tree can never decide a gate, whatever the level or --force. Only
// pre-commit checked this before (issue 25.6), so an agent that never
// committed its edit had its weakened config run the end gates.
func (e *Engine) guardProtected(ctx context.Context, s *Session, call string) error {
	if e.OpenRepo == nil || !s.Active() {
		return nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return fmt.Errorf("open worktree %s to check protected files: %w", s.Worktree, err)
	}
	why, vio, changes, err := e.sessionProtectedChanges(ctx, s, repo, "")
	if err != nil {
		return fmt.Errorf("check protected files: %w", err)
	}
	if why == "" {
		return nil
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		if vio != nil {
			if err := w.AddViolation(ctx, vio); err != nil {
				return err
			}
			// What the files held: verify tells main's content merged in
			// from an agent's edit by it (protectcontent.go).
			if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: ProtectContentToken(changes), CreatedAt: vio.CreatedAt}); err != nil {
				return err
			}
		}
		return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: TokProtectBlocked + ":" + call, CreatedAt: e.now()})
	})
	if err != nil {
		return fmt.Errorf("record protected change: %w", err)
	}
	e.publishViolations(ctx, s.ID, vio)
	return fmt.Errorf("%w: %s refused: %s; %s", ErrProtectedChanged, call, why, AcceptStep)
}
