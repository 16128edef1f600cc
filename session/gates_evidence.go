package session

import (
	"fmt"
	"strings"
)

// checkEvidence passes on evidence of a kind recorded for the phase.
// Observed evidence counts only when it is about the phase (relevantObserved)
// and outranks claims: when the newest relevant observed run failed, a claim
// does not pass the gate. With observed evidence required, only a relevant
// observed run that exited 0 does.
func checkEvidence(env gateEnv, kind string) (GateStatus, string, string) {
	p := env.phase
	obsOnly := observedOnly(p, env.cfg)
	var lastObs *Evidence
	var claim *Evidence
	for i := range env.evidence {
		e := &env.evidence[i]
		if e.Phase != p.ID || e.Step == StepNotApplicable || e.Step == StepCondition || e.Origin == OriginTranscript {
			continue // transcript evidence speaks for requirements, not for a phase's evidence check
		}
		if e.Observed() {
			if relevantObserved(*e, p, env.cfg) && (kind == "" || e.Kind == kind) {
				lastObs = e
			}
			continue
		}
		if claim == nil && (kind == "" || e.Kind == kind) {
			claim = e
		}
	}
	switch {
	case lastObs != nil && lastObs.Succeeded():
		return StatusPass, fmt.Sprintf("observed %q exited 0", truncate(lastObs.Command, 80)), "sha256:" + lastObs.SHA256
	case lastObs != nil && exitOf(lastObs) < 0 && (strings.Contains(lastObs.Ref, "runs no test (") || strings.Contains(lastObs.Ref, "in this session")):
		return StatusFail, fmt.Sprintf("the last observed run of %q for %s is no run of the project's tests (%s); a claim does not outrank it", truncate(lastObs.Command, 80), p.ID, strings.TrimPrefix(lastObs.Ref, "exit 0, but ")), ""
	case lastObs != nil && exitOf(lastObs) < 0 && strings.Contains(lastObs.Ref, "ran no tests"):
		return StatusFail, fmt.Sprintf("the last observed run of %q for %s ran no tests (%s); a claim does not outrank it: run the tests without a filter that matches none", truncate(lastObs.Command, 80), p.ID, lastObs.Ref), ""
	case lastObs != nil && exitOf(lastObs) < 0 && strings.Contains(lastObs.Ref, "runs no test"):
		return StatusFail, fmt.Sprintf("the last observed run of %q for %s did not run the tests (%s); a claim does not outrank it: run the tests themselves, without flags that only list, compile or hand them to another program", truncate(lastObs.Command, 80), p.ID, lastObs.Ref), ""
	case lastObs != nil && exitOf(lastObs) < 0 && strings.Contains(lastObs.Ref, "outside the session's worktree"):
		return StatusFail, fmt.Sprintf("the last observed run of %q for %s tested another folder (%s); a claim does not outrank it: run it in this session's worktree", truncate(lastObs.Command, 80), p.ID, lastObs.Ref), ""
	case lastObs != nil && exitOf(lastObs) < 0 && strings.Contains(lastObs.Ref, "whole line"):
		return StatusFail, fmt.Sprintf("the last observed run of %q for %s has no exit status of its own (%s); a claim does not outrank it: run the command on its own (no `| tail`, `|| true` or `; ...` after it; `set -o pipefail;` before a pipe)", truncate(lastObs.Command, 80), p.ID, lastObs.Ref), ""
	case lastObs != nil && exitOf(lastObs) < 0:
		return StatusFail, fmt.Sprintf("the last observed run of %q for %s has no known exit status (the agent did not report one); a claim does not outrank it: run it through `sessiongate run --phase %s -- COMMAND`", truncate(lastObs.Command, 80), p.ID, p.ID), ""
	case lastObs != nil:
		return StatusFail, fmt.Sprintf("the last observed run of %q for %s exited %d; a claim does not outrank it: fix the cause and run it again", truncate(lastObs.Command, 80), p.ID, exitOf(lastObs)), ""
	case obsOnly:
		return StatusFail, fmt.Sprintf("%s needs observed evidence (a command sessiongate saw run): sessiongate run --phase %s -- COMMAND", p.ID, p.ID), ""
	case claim != nil:
		return StatusPass, fmt.Sprintf("%s evidence recorded", claim.Kind), "sha256:" + claim.SHA256
	}
	if kind == "" {
		kind = "any"
	}
	return StatusFail, fmt.Sprintf("no %s evidence recorded for %s", kind, p.ID), ""
}

func orKind(k string) string {
	if k == "any" {
		return EvidenceManual
	}
	return k
}

// checkMustEvidence passes when every requirement the phase owes evidence
// for (protocolspec.Phase.OwedRequirements: each MUST that is not a
// summary) is met or, being conditional, recorded as not applicable; never
// by counting. A phase owing none asks for one piece of evidence.
func checkMustEvidence(env gateEnv) (GateStatus, string, string, []RequirementStatus) {
	p := env.phase
	if len(p.OwedRequirements()) == 0 {
		st, msg, ev := checkEvidence(env, "")
		if st == StatusFail {
			msg = fmt.Sprintf("%s has no MUST requirement; its gate asks for one piece of evidence", p.ID)
		}
		return st, msg, ev, nil
	}
	sts := requirementStatuses(p, env.evidence, env.cfg)
	var open []RequirementStatus
	met, na := 0, 0
	for _, s := range sts {
		switch s.Status {
		case ReqOpen:
			open = append(open, s)
		case ReqMet:
			met++
		case ReqNotApplicable:
			na++
		}
	}
	if len(open) > 0 {
		parts := make([]string, len(open))
		for i, o := range open {
			parts[i] = o.ID + ": " + o.Reason
		}
		return StatusFail, fmt.Sprintf("%d of %d requirements of %s still open: %s", len(open), len(sts), p.ID, strings.Join(parts, "; ")), "", open
	}
	return StatusPass, fmt.Sprintf("every requirement of %s met (%d with evidence, %d not applicable)", p.ID, met, na), "", nil
}

// openNeed says what would close an open requirement.
func openNeed(o RequirementStatus) string {
	s := fmt.Sprintf("evidence for %s (%s: %s)", o.ID, o.Level, truncate(o.Text, 100))
	if o.Conditional {
		s += ", or not_applicable with a reason"
	}
	return s
}
