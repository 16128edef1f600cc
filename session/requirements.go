package session

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/claimtext"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/notapplicable"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/toolneed"
	"github.com/sessiongate/sessiongate/transcript"
)

// StepNotApplicable is the evidence step that records a conditional
// requirement as not applying; the body is the reason.
const StepNotApplicable = "not_applicable"

// Requirement statuses.
const (
	ReqMet           = "met"
	ReqNotApplicable = "not_applicable"
	ReqOpen          = "open"
)

// RequirementStatus is where one requirement that owes evidence stands.
type RequirementStatus struct {
	ID          string `json:"id"`
	Level       string `json:"level"`
	Text        string `json:"text"`
	Conditional bool   `json:"conditional,omitempty"`
	Status      string `json:"status"` // met, not_applicable, open
	// Reason says why it is open, or what met it.
	Reason string `json:"reason"`
	// byTranscript: open because of the agent's transcript (it shows the
	// read missing or the run failing), so a claim is refused.
	byTranscript bool
	// tool is the tool call that would meet it, when the transcript decides.
	tool string
	// observed: only a run sessiongate sees meets it, so the fix is a run,
	// not a claim (a manual claim there is recorded and never counts).
	observed bool
}

// observedOnly reports whether a phase accepts only observed evidence: an
// origin=observed check, or the phase listed under observed: in the config.
func observedOnly(p *protocolspec.Phase, cfg Config) bool {
	if slices.Contains(cfg.ObservedPhases, p.ID) {
		return true
	}
	for _, c := range p.Checks {
		if c.Observed {
			return true
		}
	}
	return false
}

// needsPerRequirement reports whether a phase's gate owes evidence per requirement.
func needsPerRequirement(p *protocolspec.Phase, cfg Config) bool {
	if _, ok := cfg.Commands[p.ID]; ok {
		return false // a configured command replaces must_evidence
	}
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckMustEvidence {
			return true
		}
	}
	return false
}

// relevantObserved reports whether observed evidence speaks for a phase: it
// names one of its requirements, or sessiongate run attributed it on
// purpose, or its command is one the phase's gate or requirements name. A
// command an agent hook only saw while the phase was current (an ls, a
// grep that matched nothing) says nothing about the phase.
func relevantObserved(e Evidence, p *protocolspec.Phase, cfg Config) bool {
	if e.Phase != p.ID || !e.Observed() {
		return false
	}
	named := relevantKey(e.Command, p, cfg) != ""
	switch {
	case shellline.QueryOnly(e.Command, func(flag string) bool { return phaseMentions(p, cfg, flag) }):
		return false // `git status --help` is not `git status`
	case named:
		return true
	case shellline.Trivial(e.Command):
		return false // `sessiongate run -- true` proves nothing, whatever it names
	case untestedQA(p, cfg, e.Command):
		return false // `ls` or `go vet` for "MUST run the tests"
	case e.Requirement != "":
		// Bound to a requirement, it speaks for the phase, except that a
		// phase whose command sessiongate.yaml sets is run by that command
		// (what "run the tests" means in this project) unless the
		// requirement quotes the other one: `git status` bound to "MUST
		// run the tests" met the starter's QA gate.
		if _, ok := cfg.Commands[p.ID]; ok && !requirementQuotes(p, e.Requirement, e.Command) {
			return false
		}
		return true
	case e.Source == SourceRun:
		// The agent picked the phase: its command counts unless the phase
		// names a command of its own and this is another.
		return !phaseNamesCommand(p, cfg)
	}
	return false
}

// untestedQA reports a run offered for a QA phase with no command of its
// own (sessiongate.yaml or a gate) that runs no test suite: the phase asks
// for the tests, and `ls`, `go vet` or `python3 -c pass` exit 0 without
// running one (shellline.RunsTests).
func untestedQA(p *protocolspec.Phase, cfg Config, line string) bool {
	if !qaPhase(p, cfg) || phaseNamesCommand(p, cfg) {
		return false
	}
	return !shellline.RunsTests(line)
}

// requirementQuotes reports whether the phase's requirement id quotes a
// command of line (its program and subcommand).
func requirementQuotes(p *protocolspec.Phase, id, line string) bool {
	r, ok := p.Requirement(id)
	if !ok {
		return false
	}
	for _, key := range shellline.Keys(line) {
		if strings.Contains(key, " ") && shellline.ContainsWords(r.Text, key) {
			return true
		}
	}
	return false
}

// phaseMentions reports whether the phase's commands or requirements hold
// text (a flag such as --version that a requirement asks for).
func phaseMentions(p *protocolspec.Phase, cfg Config, text string) bool {
	if strings.Contains(cfg.Commands[p.ID], text) {
		return true
	}
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckCommand && strings.Contains(c.Arg, text) {
			return true
		}
	}
	for _, r := range p.Requirements {
		if strings.Contains(r.Text, text) {
			return true
		}
	}
	return false
}

// phaseNamesCommand: the phase's gate runs a command, or sessiongate.yaml
// gives it one.
func phaseNamesCommand(p *protocolspec.Phase, cfg Config) bool {
	if _, ok := cfg.Commands[p.ID]; ok {
		return true
	}
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckCommand {
			return true
		}
	}
	return false
}

// relevantKey is the key (program and subcommand) of the first command of
// a line that the phase names: its command from sessiongate.yaml, a gate
// command, or a requirement quoting it. "" when none.
func relevantKey(line string, p *protocolspec.Phase, cfg Config) string {
	for _, key := range shellline.Keys(line) {
		if c, ok := cfg.Commands[p.ID]; ok && shellline.Key(c) == key {
			return key // the phase's command from sessiongate.yaml
		}
		for _, c := range p.Checks {
			if c.Kind == protocolspec.CheckCommand && shellline.Key(c.Arg) == key {
				return key
			}
		}
		if !strings.Contains(key, " ") {
			continue
		}
		for _, r := range p.Requirements {
			if shellline.ContainsWords(r.Text, key) {
				return key
			}
		}
	}
	return ""
}

// observedFor reports whether observed evidence is about one requirement:
// it names it, or (naming none) its command is quoted in the requirement.
func observedFor(e Evidence, r protocolspec.Requirement) bool {
	if shellline.QueryOnly(e.Command, func(flag string) bool { return strings.Contains(r.Text, flag) }) {
		return false // the tool's usage or version, not a run of it
	}
	quoted := false
	for _, key := range shellline.Keys(e.Command) {
		if strings.Contains(key, " ") && shellline.ContainsWords(r.Text, key) {
			quoted = true
		}
	}
	switch {
	case e.Requirement != "":
		// Bound to the requirement; a run that proves nothing does not
		// meet it unless the requirement asks for exactly that.
		return e.Requirement == r.ID && (quoted || !shellline.Trivial(e.Command))
	}
	return quoted || toolneed.BranchCheck(r, e.Command) || toolneed.PathCheck(r, e.Command)
}

// shellReadOf reports an observed shell run that printed a file a read
// requirement names (`cat .agents/governance/PROJECT-CONSTRAINTS.md`):
// the agent hooks saw it run and its output went to the model, as a
// transcript's shell read does. Under the Copilot CLI, which leaves no
// transcript sessiongate reads, an honest `cat` met nothing and the
// 2025-12-22 protocol's Skill Validation was blocked (round 25, c4,
// TestCopilotHonestV1222Task). Only where no transcript is known: a
// claim counts there, and a run the hooks saw is no less. Relative paths
// only: the run's folder is the worktree's.
func shellReadOf(cmd string, r protocolspec.Requirement) bool {
	if toolneed.Of(r) != toolneed.Read {
		return false
	}
	for _, p := range transcript.ShellReads(cmd) {
		if p = path.Clean(p); !path.IsAbs(p) && !strings.HasPrefix(p, "../") && namesPath(r.NamedPaths(), p) {
			return true
		}
	}
	return false
}

// claimCounts reports whether claimed evidence can be counted once per body:
// tool output and manual notes are what an agent can repeat; a path, a
// commit or a content hash is checked by sessiongate and may prove several
// requirements (one commit stages and commits).
func claimCounts(kind string) bool { return kind == EvidenceToolOutput || kind == EvidenceManual }

// pathKind: evidence that is a file of the repository (its path and the
// sha256 sessiongate read). It counts for one requirement of a phase, or
// for each requirement that names that file.
func pathKind(kind string) bool { return kind == EvidenceFilePath || kind == EvidenceContentHash }

// namesPath reports whether rel is one of the paths a requirement names
// (globs from Requirement.NamedPaths); a named file without a folder
// matches by its name's end ("PROJECT-PLAN.md" names
// .agents/planning/enhancement-PROJECT-PLAN.md).
func namesPath(named []string, rel string) bool {
	for _, g := range named {
		if repopath.Match(g, rel) || strings.HasPrefix(rel, strings.TrimSuffix(g, "**")) && strings.HasSuffix(g, "/**") {
			return true
		}
		if !strings.Contains(g, "/") && !repopath.HasMeta(g) && strings.HasSuffix(path.Base(rel), g) {
			return true
		}
	}
	return false
}

// requirementStatuses decides each owed requirement of a phase from the
// session's evidence, in document order:
//   - not applicable: a conditional requirement with a recorded reason;
//   - observed evidence outranks claimed: the newest observed run for the
//     requirement decides (a failing run is not outweighed by a claim);
//   - with observed evidence required, claims do not count;
//   - a claimed body counts for one requirement only (the first it was
//     recorded for), so the same text twice is one piece of evidence.
func requirementStatuses(p *protocolspec.Phase, evs []Evidence, cfg Config) []RequirementStatus {
	owed := p.OwedRequirements()
	obsOnly := observedOnly(p, cfg)
	used := map[string]string{} // claimed body sha -> requirement it counted for
	out := make([]RequirementStatus, 0, len(owed))
	for _, r := range owed {
		st := RequirementStatus{ID: r.ID, Level: r.Level, Text: r.Text, Conditional: r.Conditional, Status: ReqOpen}
		var lastObs, lastTx *Evidence
		var claims []Evidence
		na := ""
		for i := range evs {
			e := evs[i]
			if e.Phase != p.ID {
				continue
			}
			switch {
			case e.Origin == OriginTranscript:
				if e.Requirement == r.ID {
					lastTx = &evs[i]
				}
			case e.Observed():
				// A shell read the hooks saw counts where no transcript is
				// known (where one is, only its calls do: transcriptNeeds).
				// A run that checks nothing (`go build`, `python3 -c
				// 'print(1)'`) bound to a QA phase's "run the checks" does
				// not meet it: `sessiongate run` says it proves nothing
				// (relevantObserved), and it met the requirement all the
				// same (round 56, helper 333, TestR56BoundRunThatChecksNothing).
				if testRunOwed(p, cfg, r) && untestedQA(p, cfg, e.Command) && !requirementQuotes(p, r.ID, e.Command) {
					continue
				}
				if observedFor(e, r) || cfg.transcript.agent == "" && shellReadOf(e.Command, r) {
					lastObs = &evs[i]
				}
			case e.Requirement != r.ID:
			case e.Step == StepNotApplicable:
				if na == "" { // checked, or pending a person (notapplicable.go)
					na = e.Ref
				}
			default:
				claims = append(claims, e)
			}
		}
		switch {
		case na != "":
			st.Status, st.Reason = ReqNotApplicable, "not applicable: "+na
		case lastObs != nil && lastObs.Succeeded():
			st.Status, st.Reason = ReqMet, fmt.Sprintf("observed %q exited 0", truncate(lastObs.Command, 80))
		case lastObs != nil:
			st.Reason = fmt.Sprintf("the last observed run of %q exited %d; a claim does not outrank it: fix the cause and run it again", truncate(lastObs.Command, 80), exitOf(lastObs))
		case obsOnly || (testRunOwed(p, cfg, r) || toolneed.BranchRunOwed(r)) && lastTx == nil:
			st.Reason = fmt.Sprintf("needs observed evidence: sessiongate run --phase %s --requirement %s -- COMMAND", p.ID, r.ID)
			st.observed = true
		case lastTx != nil && exitOf(lastTx) == 0:
			st.Status, st.Reason = ReqMet, "the agent's transcript shows "+lastTx.Ref
		case lastTx != nil:
			st.byTranscript = true
			st.Reason = fmt.Sprintf("the agent's transcript shows %s exiting %d (unknown when -1); a claim does not outrank it: fix the cause and run it again", lastTx.Ref, exitOf(lastTx))
		case transcriptNeeds(cfg.transcript, r) != "":
			st.byTranscript = true
			st.Reason = transcriptNeeds(cfg.transcript, r)
			st.tool = toolneed.Call(cfg.transcript.agent, r, r.ID)
			if cfg.transcript.broken != "" {
				st.tool = fmt.Sprintf("read it through sessiongate: sessiongate run --requirement %s -- cat %s", r.ID, strings.TrimSuffix(r.NamedPaths()[0], "/**"))
			}
		default:
			named := r.NamedPaths()
			targets := toolneed.Writes(p, r)
			wrongPath, noFile := "", false
			for _, c := range claims {
				key := c.SHA256
				if len(targets) > 0 {
					// A write requirement is met by the file it writes.
					if !pathKind(c.Kind) {
						noFile = true
						continue
					}
					if !writtenTarget(targets, c.Ref) {
						wrongPath = c.Ref
						continue
					}
				}
				if pathKind(c.Kind) {
					// A path answers a requirement that names paths only
					// with one of them, and one requirement of the phase
					// otherwise: PROJECT-CONSTRAINTS.md's hash is not the
					// skills folder checked, the scripts listed and the
					// inventory written.
					if len(named) > 0 && !namesPath(named, c.Ref) {
						wrongPath = c.Ref
						continue
					}
				}
				if k := artifactKey(c.Kind, c.Ref); k != "" {
					key = k
					if namesArtifact(r, c.Kind, c.Ref) {
						// The requirement asks for exactly this file or
						// commit: it may share it, and takes it from
						// unnamed requirements later in the document.
						if _, ok := used[key]; !ok {
							used[key] = r.ID
						}
						key = ""
					}
				}
				if key != "" && (claimCounts(c.Kind) || artifactKey(c.Kind, c.Ref) != "") {
					if other, ok := used[key]; ok && other != r.ID {
						continue
					}
					used[key] = r.ID
				}
				st.Status, st.Reason = ReqMet, fmt.Sprintf("%s evidence %s", c.Kind, c.Ref)
				break
			}
			if st.Status == ReqOpen && wrongPath != "" {
				if len(named) == 0 {
					named = targets
				}
				st.Reason = fmt.Sprintf("its evidence names %s, which is not what it names (%s): record evidence about that", wrongPath, strings.Join(named, ", "))
				out = append(out, st)
				continue
			}
			if st.Status == ReqOpen && noFile {
				st.Reason = fmt.Sprintf("it asks to write %s, and its evidence is a note, not the file: write it and record it as file_path", strings.Join(targets, ", "))
				out = append(out, st)
				continue
			}
			if st.Status == ReqOpen {
				if r.Conditional {
					st.Reason = fmt.Sprintf("no evidence: record_evidence requirement=%s, or not_applicable with the reason it does not apply", r.ID)
				} else {
					st.Reason = fmt.Sprintf("no evidence: record_evidence requirement=%s", r.ID)
				}
				if len(claims) > 0 {
					st.Reason = "its only evidence is a body already counted for another requirement: record its own evidence"
				}
			}
		}
		if st.Status == ReqMet {
			if gap := commitOrderGap(p, r, evs, cfg); gap != "" {
				st.Status, st.Reason = ReqOpen, gap
				// Met by a run: the fix is a run again, then a commit, not
				// a claim (a note recorded after the commit is as late).
				st.observed = lastObs != nil
			}
		}
		out = append(out, st)
	}
	return out
}

func exitOf(e *Evidence) int {
	if e.ExitCode == nil {
		return -1
	}
	return *e.ExitCode
}

// openIDs lists the ids of requirements still open.
func openIDs(sts []RequirementStatus) []string {
	var out []string
	for _, s := range sts {
		if s.Status == ReqOpen {
			out = append(out, s.ID)
		}
	}
	return out
}

// resolveRequirement finds the requirement an evidence request names, in
// its phase. A full id of another phase, or an id no phase has, is an error
// that names the fix.
func resolveRequirement(spec *protocolspec.Spec, p *protocolspec.Phase, id string) (protocolspec.Requirement, error) {
	id = strings.TrimSpace(id)
	if r, ok := p.Requirement(id); ok {
		return r, nil
	}
	if q, _, ok := spec.FindRequirement(id); ok {
		return protocolspec.Requirement{}, invalidf("requirement %s belongs to phase %s, not %s: record it with phase=%s (or name a requirement of %s: %s)",
			truncate(id, 120), q.ID, p.ID, q.ID, p.ID, idList(p))
	}
	return protocolspec.Requirement{}, invalidf("unknown requirement %q in phase %s: use one of %s (sessiongate protocol show lists them)", truncate(id, 120), p.ID, idList(p))
}

func idList(p *protocolspec.Phase) string {
	ids := p.RequirementIDs()
	if len(ids) == 0 {
		return "(none: this phase has no requirements; record evidence without a requirement)"
	}
	return strings.Join(ids, ", ")
}

// phaseOfRequirement returns the phase id a full requirement id names
// ("" when id has no known phase prefix).
func phaseOfRequirement(spec *protocolspec.Spec, id string) string {
	if q, _, ok := spec.FindRequirement(strings.TrimSpace(id)); ok {
		return q.ID
	}
	return ""
}

// bindRequirement settles which requirement evidence naming none is for, in
// a phase that owes evidence per requirement: the one requirement still
// open, else an error listing the open ids (nothing is recorded).
func bindRequirement(p *protocolspec.Phase, evs []Evidence, cfg Config) (string, error) {
	open := openIDs(requirementStatuses(p, evs, cfg))
	switch len(open) {
	case 0:
		return "", nil // nothing is owed: the evidence is kept for the phase and counts for nothing
	case 1:
		return open[0], nil
	}
	return "", invalidf("phase %s owes evidence per requirement and %d are open: name the one this evidence is for with requirement= (one of %s)", p.ID, len(open), strings.Join(open, ", "))
}

// Requirements returns where each requirement owing evidence in a phase
// stands for a session (default phase: the current one); nil for a phase
// whose gate does not owe evidence per requirement.
func (e *Engine) Requirements(ctx context.Context, id, phaseID string) ([]RequirementStatus, error) {
	s, spec, err := e.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if phaseID == "" {
		phaseID = s.Phase
	}
	p, ok := spec.Phase(phaseID)
	if !ok {
		return nil, invalidf("unknown phase %q: the protocol has %s", truncate(phaseID, 64), phaseIDs(spec))
	}
	if !needsPerRequirement(p, e.Config) {
		return nil, nil // its gate does not wait for requirements one by one
	}
	cfg := e.Config
	if cfg.transcript, err = e.ingestTranscripts(ctx, s, spec); err != nil {
		return nil, err
	}
	evs, err := e.Store.GateEvidence(ctx, s.ID, p.ID) // requirementStatuses reads the phase's only
	if err != nil {
		return nil, fmt.Errorf("load evidence: %w", err)
	}
	if err := e.withSessionEvidence(ctx, &cfg, s, p); err != nil {
		return nil, err
	}
	return requirementStatuses(p, evs, cfg), nil
}

// checkClaim checks what claimed evidence is for before anything is
// stored, and returns the requirement id it counts for ("" for the phase).
// It refuses a requirement of another phase or an unknown one, a
// not-applicable record for a requirement that always applies, evidence
// naming no requirement while several are open, output that reports its
// own failure or a padding word where it would count for a MUST or for the
// phase's evidence check, and a body already counted for another
// requirement. req.Step becomes StepNotApplicable for a not-applicable record.
func (e *Engine) checkClaim(ctx context.Context, spec *protocolspec.Spec, sid string, p *protocolspec.Phase, req *EvidenceRequest, body string) (string, error) {
	if req.Step == StepNotApplicable {
		req.NotApplicable = true
	}
	var r protocolspec.Requirement
	has := false
	if strings.TrimSpace(req.Requirement) != "" {
		var err error
		if r, err = resolveRequirement(spec, p, req.Requirement); err != nil {
			return "", err
		}
		has = true
	}
	if req.NotApplicable && !has {
		// No requirement named: the phase as a whole (notapplicable.go).
		req.Step, req.NotApplicable = StepCondition, false
	}
	if req.NotApplicable {
		if _, err := e.checkNotApplicable(ctx, spec, sid, p, &r, body); err != nil {
			return "", err
		}
		req.Step = StepNotApplicable
		return r.ID, nil
	}
	if req.Step == StepCondition {
		if _, err := e.checkNotApplicable(ctx, spec, sid, p, nil, body); err != nil {
			return "", err
		}
		return "", nil // the phase's own condition, or the phase as a whole: evaluate() reads it
	}
	cfg := e.Config
	if readsTranscript(p, cfg) {
		// What the agent's transcript shows decides claims for reads.
		s, err := e.Store.GetSession(ctx, sid)
		if err != nil {
			return "", fmt.Errorf("load session: %w", err)
		}
		if cfg.transcript, err = e.ingestTranscripts(ctx, s, spec); err != nil {
			return "", err
		}
	}
	evs, err := e.Store.GateEvidence(ctx, sid, p.ID) // every use below reads the phase's only
	if err != nil {
		return "", fmt.Errorf("load evidence: %w", err)
	}
	if !has && needsPerRequirement(p, cfg) && !forPhaseCheck(p, req.Kind, body) {
		id, err := bindRequirement(p, evs, cfg)
		if err != nil {
			return "", err
		}
		if id != "" {
			r, has = mustRequirement(p, id), true
		}
	}
	if !has && claimCounts(req.Kind) && p.Condition == "" {
		// Unbound evidence for a phase whose MUSTs all are one server's
		// calls (SERENA_INITIALIZATION, gated by "evidence tool_output")
		// can only be about those calls (mcpclaim.go).
		if server, _, ok := mcpNA(p, nil); ok {
			s, err := e.Store.GetSession(ctx, sid)
			if err != nil {
				return "", fmt.Errorf("load session: %w", err)
			}
			for _, o := range p.OwedRequirements() {
				if _, sv := toolneed.MCPTools(o); sv == server && !o.Conditional {
					if err := e.mcpClaimRefused(ctx, s, o, req.Kind); err != nil {
						return "", err
					}
					break
				}
			}
		}
	}
	if cfg.transcript.agent != "" && readsTranscript(p, cfg) {
		// A claim the agent's transcript contradicts is refused: the
		// transcript shows the read never happened, or the run failed.
		// A file's path or hash is also judged against the requirements
		// to read that file, whichever requirement it names.
		rel := ""
		if pathKind(req.Kind) {
			rel, _ = repopath.Clean(strings.TrimSpace(body))
		}
		sts := requirementStatuses(p, evs, cfg)
		if !readsAllCalls(p, cfg) {
			sts = callsOpen(p, evs, cfg) // only the calls its text requires
		}
		for _, st := range sts {
			q, _ := p.Requirement(st.ID)
			if st.Status != ReqOpen || !st.byTranscript {
				continue
			}
			if has && st.ID == r.ID || rel != "" && toolneed.Of(q) == toolneed.Read && namesPath(q.NamedPaths(), rel) {
				return "", refusedf("%s evidence for %s is refused: %s", req.Kind, st.ID, st.Reason)
			}
		}
	}
	if has {
		s, err := e.Store.GetSession(ctx, sid)
		if err != nil {
			return "", fmt.Errorf("load session: %w", err)
		}
		if cf, ok := notapplicable.CallFailureOf(p, &r); ok {
			if err := e.callFailureClaim(ctx, s, r.ID, cf); err != nil {
				return "", err
			}
		}
		if err := e.writeClaim(ctx, s, p, r, req.Kind, body); err != nil {
			return "", err
		}
		if err := e.mcpClaimRefused(ctx, s, r, req.Kind); err != nil {
			return "", err
		}
		if missing := readOfMissing(s.Worktree, r); missing != nil {
			hint := "restore the file, or say why the requirement cannot be met"
			if r.Conditional {
				hint = "if it does not apply, record not_applicable with the reason"
			}
			return "", refusedf("%s asks to read %s, which does not exist in the repository: a read of it cannot be evidence; %s", r.ID, slashList(missing), hint)
		}
		if made, err := e.readOfOwnFile(ctx, s, r); err != nil {
			return "", err
		} else if made != nil {
			return "", refusedf("%s asks to read %s, which the session's starting commit %s does not have: the file was made during this session, and reading one's own file is not evidence of reading the repository's; a person adds it to the repository or changes the protocol", r.ID, slashList(made), shortSHA(s.StartCommit))
		}
		if claimCounts(req.Kind) {
			// A typed listing of a folder the requirement asks to list
			// must agree with what the folder holds (toolneed/listing.go).
			for _, folder := range toolneed.ListedFolders(r, e.protocolText(ctx, s)) {
				if entries, ok := folderFiles(s.Worktree, folder); ok {
					if why := toolneed.ListingFalse(folder, body, entries); why != "" {
						return "", refusedf("%s evidence for %s is refused: %s; record the listing as the folder gives it (or let sessiongate see the run: sessiongate run --phase %s -- ls -R %s)", req.Kind, r.ID, why, p.ID, folder)
					}
				}
			}
		}
		if pathKind(req.Kind) && qaPhase(p, cfg) {
			// A QA report whose own verdict fails the work (qaverdict.go).
			if rel, err := repopath.Clean(strings.TrimSpace(body)); err == nil {
				if why := reportFails(s.Worktree, rel); why != "" {
					return "", refusedf("%s evidence for %s is refused: %s", req.Kind, r.ID, why)
				}
			}
		}
	}
	strict := has && r.Level == protocolspec.LevelMust
	for _, c := range p.Checks {
		switch {
		case c.Kind == protocolspec.CheckEvidence && (c.Arg == "" || c.Arg == req.Kind):
			strict = true // it would pass the phase's evidence check, whatever it names
		case c.Kind == protocolspec.CheckMustEvidence && !has:
			strict = true // the phase's one piece of evidence
		}
	}
	what := p.ID
	if has {
		what = r.ID
	}
	if strict && claimCounts(req.Kind) {
		if f := claimtext.Failure(body); f != "" {
			return "", refusedf("evidence for %s reports %s: output that says it failed is not evidence of success; fix the cause, run it again and record the passing output (or let sessiongate see it: sessiongate run --phase %s -- COMMAND)", what, f, p.ID)
		}
		if pd := claimtext.Padding(body); pd != "" {
			hint := "record what shows it was done: the tool output, a file_path, a commit_sha"
			if has && r.Conditional {
				hint = "if it does not apply, record not_applicable with the reason; else " + hint
			}
			return "", refusedf("evidence for %s is a placeholder (%q), not evidence: %s", what, truncate(pd, 40), hint)
		}
	}
	if has && claimCounts(req.Kind) {
		sum := sha256Hex([]byte(body))
		for _, x := range evs {
			if x.Phase == p.ID && !x.Observed() && claimCounts(x.Kind) && x.SHA256 == sum && x.Requirement != "" && x.Requirement != r.ID && x.Step != StepNotApplicable {
				return "", refusedf("this body was already recorded for requirement %s; the same body counts once: record what shows %s was done", x.Requirement, r.ID)
			}
		}
	}
	if has {
		if err := e.artifactReused(ctx, sid, r, req.Kind, body); err != nil {
			return "", err
		}
	}
	if has && pathKind(req.Kind) && r.Level == protocolspec.LevelMust && needsPerRequirement(p, e.Config) {
		rel, err := repopath.Clean(strings.TrimSpace(body))
		if err != nil {
			return "", fmt.Errorf("%s evidence: %w", req.Kind, err)
		}
		if named := r.NamedPaths(); len(named) > 0 {
			if !namesPath(named, rel) {
				return "", refusedf("%s names %s; %s is another file and proves nothing about it: record evidence about %s (or the output of the command that checked it)", r.ID, strings.Join(named, ", "), rel, strings.Join(named, ", "))
			}
		} else if mem := memoryNamed(r); mem != "" && strings.TrimSuffix(path.Base(rel), ".md") != mem {
			// "read the X memory using ... memory_file_name=\"X\"" names a
			// memory, not a path: a hash of another file is not its read.
			return "", refusedf("%s asks to read the memory %q; %s is another file and proves nothing about it: record the read's output, or the memory file (%s.md)", r.ID, mem, rel, mem)
		} else if globs := sessionLogGlobs(spec); len(globs) > 0 && writesSessionLog(r) && !matchesAny(globs, rel) {
			// "Document X in session log" names no path, but the protocol's
			// session-log checks do: sessiongate.yaml or any other file is
			// not the session log (helper 353).
			return "", refusedf("%s asks for it in the session log (%s); %s is another file and proves nothing about it: record the session log's path", r.ID, strings.Join(globs, ", "), rel)
		} else {
			for _, x := range evs {
				if x.Phase == p.ID && !x.Observed() && pathKind(x.Kind) && x.Ref == rel && x.Requirement != "" && x.Requirement != r.ID {
					if o, ok := p.Requirement(x.Requirement); ok && len(o.NamedPaths()) > 0 {
						continue // that one asked for exactly this file
					}
					return "", refusedf("%s was already recorded for requirement %s; one file counts for one requirement of %s unless a requirement names it: record what shows %s was done", rel, x.Requirement, p.ID, r.ID)
				}
			}
		}
	}
	if has {
		return r.ID, nil
	}
	return "", nil
}

func mustRequirement(p *protocolspec.Phase, id string) protocolspec.Requirement {
	r, _ := p.Requirement(id)
	return r
}

// SourceRun is the Source of observed evidence recorded by `sessiongate run`.
const SourceRun = "run"

// configuredPhase returns the phase whose command in sessiongate.yaml
// (commands:) starts with the same program and subcommand as cmd; the
// config's command replaces the protocol's, so it is matched first. ""
// when none does; the lowest phase id wins a tie, so the answer is stable.
func (e *Engine) configuredPhase(spec *protocolspec.Spec, cmd string) string {
	key := shellline.Key(cmd)
	if key == "" {
		return ""
	}
	best := ""
	for id, c := range e.Config.Commands {
		if _, ok := spec.Phase(id); ok && shellline.Key(c) == key && (best == "" || id < best) {
			best = id
		}
	}
	return best
}

// forPhaseCheck reports whether a claim naming no requirement is a file
// the phase's own machine check reads (the handoff's content hash under
// `content_hash .agents/HANDOFF.md`): it is for that check, and does not
// answer the phase's other MUSTs, which the check does not prove ("Read
// the issue or task" was met by the handoff's hash).
func forPhaseCheck(p *protocolspec.Phase, kind, body string) bool {
	if !pathKind(kind) {
		return false
	}
	rel, err := repopath.Clean(strings.TrimSpace(body))
	if err != nil {
		return false
	}
	for _, c := range p.Checks {
		switch c.Kind {
		case protocolspec.CheckContentHash, protocolspec.CheckFileExists, protocolspec.CheckChangedSinceStart:
			if m, _ := path.Match(c.Arg, rel); m || c.Arg == rel {
				return true
			}
		}
	}
	return false
}

// testRunOwed reports a requirement to run the tests in a QA phase with no
// command of its own: only a run sessiongate saw (or the agent's own
// transcript, read before this) shows the tests ran. Typed test output
// ("ok  greet 0.004s PASS") met v3.0's "Run checks that cover the changed
// behavior" where init found no test command (adversarial pass, issue 25).
func testRunOwed(p *protocolspec.Phase, cfg Config, r protocolspec.Requirement) bool {
	return toolneed.Of(r) == toolneed.Run && qaPhase(p, cfg) && !phaseNamesCommand(p, cfg)
}

// writesSessionLog: the requirement asks for something written in the
// session log ("document available skills in session log").
func writesSessionLog(r protocolspec.Requirement) bool {
	low := strings.ToLower(r.Text)
	return strings.Contains(low, "in session log") || strings.Contains(low, "in the session log")
}

// sessionLogGlobs are the globs of the protocol's checks on the session
// log (file_exists, has_section, no_placeholders on .../sessions/...).
func sessionLogGlobs(spec *protocolspec.Spec) []string {
	if spec == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for i := range spec.Phases {
		for _, c := range spec.Phases[i].Checks {
			switch c.Kind {
			case protocolspec.CheckFileExists, protocolspec.CheckHasSection, protocolspec.CheckNoPlaceholders:
			default:
				continue
			}
			if isSessionLogGlob(c.Arg) && !seen[c.Arg] {
				seen[c.Arg] = true
				out = append(out, c.Arg)
			}
		}
	}
	return out
}

func matchesAny(globs []string, rel string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, rel); ok {
			return true
		}
	}
	return false
}

var memoryNameRE = lazyregexp.New(`memory_file_name\s*=\s*"([^"/]+)"`)

// memoryNamed is the memory a requirement asks to read by name
// (memory_file_name="skill-usage-mandatory"), or "".
func memoryNamed(r protocolspec.Requirement) string {
	if m := memoryNameRE.FindStringSubmatch(r.Text); m != nil {
		return strings.TrimSuffix(m[1], ".md")
	}
	return ""
}
