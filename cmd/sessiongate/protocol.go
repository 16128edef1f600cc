package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/editorial"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

func newProtocolCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "protocol",
		Short: "Show and lint the session protocol document",
	}
	var asJSON, example, lintJSON bool
	show := &cobra.Command{
		Use:   "show [FILE]",
		Short: "Print the parsed protocol: phases, gates, requirements, checks",
		Long: `Print the parsed protocol. FILE defaults to --protocol, SESSIONGATE_PROTOCOL,
the config's protocol key, SESSION-PROTOCOL.md, then .agents/SESSION-PROTOCOL.md.
--example shows the starter protocol that 'sessiongate init' writes.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			spec, err := a.parseFor(c, argv, example)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(c.OutOrStdout(), spec)
			}
			printSpec(c.OutOrStdout(), spec)
			return nil
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	show.Flags().BoolVar(&example, "example", false, "show the bundled starter protocol")
	lint := &cobra.Command{
		Use:   "lint [FILE]",
		Short: "Check the protocol: exit 0 when valid (warnings printed), 1 with FILE:LINE errors",
		Long: `Check the protocol: exit 0 when it is valid (warnings printed), 1 with one
FILE:LINE line per error. --json prints one object for scripts:
{"file", "valid", "errors": [{"line", "message"}], "warnings": [{"line", "message"}],
"phases": [{"id", "gate", "coverage", "checks"}], "inferred_checks", "evidence_only"},
with the same exit codes.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			if lintJSON {
				return a.lintJSON(c, argv)
			}
			spec, err := a.parseFor(c, argv, false)
			if err != nil {
				return err
			}
			w := c.OutOrStdout()
			if len(argv) == 0 {
				// The config beside the protocol: its phase ids must exist.
				if err := a.checkConfigPhases(c.Context(), spec); err != nil {
					fmt.Fprintln(c.ErrOrStderr(), err)
					return &exitError{code: exitBlocked, err: errors.New("sessiongate.yaml does not match the protocol")}
				}
				spec = a.boundByConfig(c.Context(), spec)
			}
			for _, wa := range lintWarnings(spec) {
				fmt.Fprintf(w, "%s:%d: warning: %s\n", spec.File, wa.Line, wa.Message)
			}
			commands := a.configCommands(c.Context(), len(argv) == 0)
			printCoverage(w, spec, commands)
			a.printSuiteTimeouts(c.Context(), w, spec, commands)
			printInferred(w, spec)
			printEvidenceOnly(w, spec)
			return nil
		},
	}
	lint.Flags().BoolVar(&lintJSON, "json", false, "print JSON")
	cmd.AddCommand(show, lint, newAcceptCmd(a))
	return cmd
}

// parseFor parses FILE, the example, or the repository's protocol. Parse
// errors exit 1 with one FILE:LINE line each.
func (a *app) parseFor(c *cobra.Command, argv []string, example bool) (*protocolspec.Spec, error) {
	var name string
	var b []byte
	if example {
		name, b = "SESSION-PROTOCOL.md (example)", starterProtocol
	} else {
		file := ""
		if len(argv) == 1 {
			file = argv[0]
		}
		var err error
		if name, b, err = a.readProtocol(c.Context(), file); err != nil {
			return nil, err
		}
	}
	spec, err := protocolspec.Parse(name, b)
	if err != nil {
		var el protocolspec.ErrorList
		if errors.As(err, &el) {
			fmt.Fprintln(c.ErrOrStderr(), el.Error())
			return nil, &exitError{code: exitBlocked, err: fmt.Errorf("%s: %d error(s)", name, len(el))}
		}
		return nil, blocked("%w", err)
	}
	spec.File = name
	return spec, nil
}

func printSpec(w io.Writer, spec *protocolspec.Spec) {
	fmt.Fprintf(w, "%s  sha256:%s\n\n", spec.File, spec.SHA256)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SECTION\tPHASE\tID\tGATE\tREQS\tCHECKS\tLINE")
	for _, p := range spec.Phases {
		gate := string(p.Gate)
		if p.Condition != "" {
			gate += " " + p.Condition
		}
		fmt.Fprintf(tw, "%s\t%s %s\t%s\t%s\t%d\t%s\t%d\n", p.Section, p.Number, p.Title, p.ID, gate, len(p.Requirements), checkList(p.Checks), p.Line)
	}
	tw.Flush()
	printRequirements(w, spec)
	if len(spec.Checklists) > 0 {
		fmt.Fprintln(w)
		for _, cl := range spec.Checklists {
			fmt.Fprintf(w, "checklist template (%s) %q at line %d: %d items\n", cl.Section, cl.Title, cl.Line, len(cl.Items))
		}
	}
	printInferred(w, spec)
	for _, wa := range spec.Warnings {
		fmt.Fprintf(w, "warning: line %d: %s\n", wa.Line, wa.Message)
	}
}

// printInferred lists the checks inferred from the protocol's sentences,
// each with the sentence and line it came from.
func printInferred(w io.Writer, spec *protocolspec.Spec) {
	inf := spec.InferredChecks()
	fmt.Fprintf(w, "\ninferred checks: %d (from explicit sentences; <!-- gate: infer=off --> in a phase turns this off)\n", len(inf))
	for _, ic := range inf {
		c := ic.Check
		s := string(c.Kind)
		if c.Arg != "" {
			s += " " + c.Arg
		}
		fmt.Fprintf(w, "  %s: %s  <- line %d %s [%s]: %q\n", ic.Phase, s, c.Inferred.Line, c.Inferred.Requirement, c.Inferred.Rule, c.Inferred.Sentence)
	}
}

// printEvidenceOnly lists the requirements only recorded evidence can
// show, so the author can annotate those a machine could check.
func printEvidenceOnly(w io.Writer, spec *protocolspec.Spec) {
	eo := spec.EvidenceOnly()
	fmt.Fprintf(w, "\nevidence-only requirements: %d (no machine check cites them; put a gate annotation at the end of a requirement's line to check it)\n", len(eo))
	for _, r := range eo {
		cond := ""
		if r.Conditional {
			cond = " (conditional)"
		}
		fmt.Fprintf(w, "  %s:%d: %s %s%s: %s\n", spec.File, r.Line, r.ID, r.Level, cond, r.Text)
	}
}

func checkList(cs []protocolspec.Check) string {
	var parts []string
	for _, c := range cs {
		s := string(c.Kind)
		if c.Arg != "" {
			s += " " + c.Arg
		}
		if c.Fresh {
			s += " fresh"
		}
		if c.Observed {
			s += " origin=observed"
		}
		if c.When != "" {
			s += " when=" + c.When
		}
		if c.WhenChanged != "" {
			s += " when_changed=" + c.WhenChanged
		}
		if c.Builtin {
			s += " (built-in)"
		}
		if c.Inferred != nil {
			s += fmt.Sprintf(" (inferred, line %d)", c.Inferred.Line)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// printCoverage lists each phase's gate checks as they run: a command
// sessiongate.yaml sets for a phase (commands) is shown in place of what it
// replaces, marked as coming from the config.
func printCoverage(w io.Writer, spec *protocolspec.Spec, commands map[string]string) {
	machine := 0
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PHASE\tGATE\tCOVERAGE\tCHECKS")
	for i := range spec.Phases {
		p := &spec.Phases[i]
		cov := "evidence"
		list := checkList(p.Checks)
		if cmd, ok := commands[p.ID]; ok {
			list = checkList(session.GateChecks(p, commands))
			list = strings.Replace(list, "command "+cmd, "command "+cmd+" (sessiongate.yaml)", 1)
		}
		if p.MachineChecked() || commands[p.ID] != "" {
			cov = "machine"
			machine++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.ID, p.Level(), cov, list)
	}
	tw.Flush()
	fmt.Fprintf(w, "gate coverage: %d of %d phases have a machine check; the rest rely on recorded evidence\n", machine, len(spec.Phases))
	printQAWithoutCommand(w, spec, commands)
	printBinding(w, spec)
}

// printQAWithoutCommand says, for each QA phase with no test command (none
// in sessiongate.yaml, no command gate), what its gate then takes: a person
// reading init's or lint's output should not learn it from a refused run.
func printQAWithoutCommand(w io.Writer, spec *protocolspec.Spec, commands map[string]string) {
	for i := range spec.Phases {
		p := &spec.Phases[i]
		if p.Section != protocolspec.SectionEnd || !strings.Contains("_"+p.ID+"_", "_QA_") || commands[p.ID] != "" {
			continue
		}
		if slices.ContainsFunc(p.Checks, func(c protocolspec.Check) bool { return c.Kind == protocolspec.CheckCommand }) {
			continue
		}
		fmt.Fprintf(w, "note: %s has no test command (none in sessiongate.yaml, no command gate): sessiongate never runs the tests itself, "+
			"and the gate takes only a run the agent makes of a recognised test suite (a test runner such as go test, pytest, cargo test, "+
			"npm test, make test, or a script whose name says test, check or spec), seen by `sessiongate run --phase %s -- COMMAND` or the "+
			"agent's hooks; `test -f`, echo, a make target or npm script that runs nothing or that the session wrote, and a narrower run "+
			"passing after a failing one do not count. Set commands.%s in sessiongate.yaml to have the gate run the suite itself.\n", p.ID, p.ID, p.ID)
	}
}

// printBinding says, phase by phase, whether its gate can block and why
// (an unmarked phase binds by what it holds: docs/protocol.md, "Binding"),
// and which built-in checks were left out because the text contradicts
// them.
func printBinding(w io.Writer, spec *protocolspec.Spec) {
	blocks := 0
	for i := range spec.Phases {
		if spec.Phases[i].Mandatory() {
			blocks++
		}
	}
	fmt.Fprintf(w, "\nbinding: %d of %d phases can block\n", blocks, len(spec.Phases))
	files := repoFiles()
	for i := range spec.Phases {
		p := &spec.Phases[i]
		can := "cannot block"
		if p.Mandatory() {
			can = "can block"
		}
		fmt.Fprintf(w, "  %s: %s (%s): %s\n", p.ID, p.Level(), bindingReason(p), can)
		for _, c := range p.Checks {
			if cond := session.CheckCondition(c); cond != "" {
				fmt.Fprintf(w, "    %s binds only when %s; else not applicable (not failed)\n", c.Kind, cond)
				if note := docsGlobNote(c, spec.File, files); note != "" {
					fmt.Fprintf(w, "    note: %s\n", note)
				}
			}
		}
		if slices.Contains(strings.Split(p.ID, "_"), "QA") {
			// session end --skip-qa skips this phase (session/advance.go docsOnly).
			if r, ok := editorial.Allowed(spec); ok {
				fmt.Fprintf(w, "    skip_qa: allowed when every changed file is documentation (line %d)\n", r.Line)
			} else {
				fmt.Fprintf(w, "    skip_qa: refused while the phase runs a command: no sentence lets the agent skip QA\n")
			}
		}
		for _, d := range p.Dropped {
			s := string(d.Check.Kind)
			if d.Check.Arg != "" {
				s += " " + d.Check.Arg
			}
			fmt.Fprintf(w, "    built-in %s dropped: %s\n", s, d.Reason)
		}
	}
}

// bindingReason is a phase's binding reason, or its written gate for a
// spec from before bindings.
func bindingReason(p *protocolspec.Phase) string {
	if p.BindingReason != "" {
		return p.BindingReason
	}
	return "marked (" + string(p.Gate) + ")"
}

// boundByConfig is the spec bound under the repository's config
// (unmarked_phases:, commands:), as the engine enforces it; the spec as
// parsed when there is no repository or config (checkConfigPhases has
// reported a config that does not load).
// configCommands returns the phase commands the repository's
// sessiongate.yaml sets (nil outside a repository, for a protocol named on
// the command line, or when the config cannot be read: lint reports that).
func (a *app) configCommands(ctx context.Context, repoProtocol bool) map[string]string {
	if !repoProtocol {
		return nil
	}
	if _, err := a.gitRepo(ctx); err != nil {
		return nil
	}
	cfg, err := a.config(ctx)
	if err != nil {
		return nil
	}
	return cfg.Commands
}

func (a *app) boundByConfig(ctx context.Context, spec *protocolspec.Spec) *protocolspec.Spec {
	if _, err := a.gitRepo(ctx); err != nil {
		return spec
	}
	cfg, err := a.config(ctx)
	if err != nil {
		return spec
	}
	return spec.Bound(cfg.Engine().BindOptions())
}

// checkConfigPhases fails (exit 2) when the repository's config cannot be
// read or names phase ids the protocol lacks, each with line and column.
func (a *app) checkConfigPhases(ctx context.Context, spec *protocolspec.Spec) error {
	if _, err := a.gitRepo(ctx); err != nil {
		return nil // no repository, no config
	}
	cfg, err := a.config(ctx)
	if err != nil {
		return err
	}
	ids := make([]string, len(spec.Phases))
	for i, p := range spec.Phases {
		ids[i] = p.ID
	}
	if err := cfg.CheckPhases(ids); err != nil {
		return usage(err)
	}
	return nil
}

// lintWarnings are the parser's warnings and the linter's, the list
// `protocol lint` and `doctor` both report.
func lintWarnings(spec *protocolspec.Spec) []protocolspec.Warning {
	return append(append([]protocolspec.Warning{}, spec.Warnings...), protocolspec.Lint(spec)...)
}

// lintReport is `protocol lint --json`.
type lintReport struct {
	File           string                                 `json:"file"`
	Valid          bool                                   `json:"valid"`
	Errors         []protocolspec.Warning                 `json:"errors"`
	Warnings       []protocolspec.Warning                 `json:"warnings"`
	Phases         []lintPhase                            `json:"phases"`
	InferredChecks []protocolspec.InferredCheck           `json:"inferred_checks"`
	EvidenceOnly   []protocolspec.EvidenceOnlyRequirement `json:"evidence_only"`
}

type lintPhase struct {
	ID       string `json:"id"`
	Gate     string `json:"gate"`
	Coverage string `json:"coverage"` // machine or evidence
	Checks   string `json:"checks"`
	// Binding is the level enforced, Blocks whether a failed gate blocks,
	// Why the reason (an unmarked phase binds by what it holds).
	Binding string                      `json:"binding"`
	Blocks  bool                        `json:"blocks"`
	Why     string                      `json:"why"`
	Dropped []protocolspec.DroppedCheck `json:"dropped_builtins"`
	// Conditions: each check that binds only when a condition holds
	// (when=, when_changed=), "KIND: condition".
	Conditions []string `json:"conditions,omitempty"`
}

func (a *app) lintJSON(c *cobra.Command, argv []string) error {
	file := ""
	if len(argv) == 1 {
		file = argv[0]
	}
	name, b, err := a.readProtocol(c.Context(), file)
	if err != nil {
		return err
	}
	rep := lintReport{File: name, Errors: []protocolspec.Warning{}, Warnings: []protocolspec.Warning{}, Phases: []lintPhase{},
		InferredChecks: []protocolspec.InferredCheck{}, EvidenceOnly: []protocolspec.EvidenceOnlyRequirement{}}
	spec, perr := protocolspec.Parse(name, b)
	if perr != nil {
		var el protocolspec.ErrorList
		if !errors.As(perr, &el) {
			return blocked("%w", perr)
		}
		for _, e := range el {
			rep.Errors = append(rep.Errors, protocolspec.Warning{Line: e.Line, Message: e.Msg})
		}
		if err := writeJSON(c.OutOrStdout(), rep); err != nil {
			return err
		}
		return &exitError{code: exitBlocked, err: fmt.Errorf("%s: %d error(s)", name, len(el))}
	}
	spec.File = name
	if len(argv) == 0 {
		if err := a.checkConfigPhases(c.Context(), spec); err != nil {
			rep.Errors = append(rep.Errors, protocolspec.Warning{Message: err.Error()})
		}
		spec = a.boundByConfig(c.Context(), spec)
	}
	rep.Valid = len(rep.Errors) == 0
	rep.Warnings = append(rep.Warnings, lintWarnings(spec)...)
	for i := range spec.Phases {
		p := &spec.Phases[i]
		cov := "evidence"
		if p.MachineChecked() {
			cov = "machine"
		}
		dropped := p.Dropped
		if dropped == nil {
			dropped = []protocolspec.DroppedCheck{}
		}
		var conds []string
		for _, c := range p.Checks {
			if cond := session.CheckCondition(c); cond != "" {
				conds = append(conds, string(c.Kind)+": "+cond)
			}
		}
		rep.Phases = append(rep.Phases, lintPhase{ID: p.ID, Gate: string(p.Gate), Coverage: cov, Checks: checkList(p.Checks),
			Binding: string(p.Level()), Blocks: p.Mandatory(), Why: bindingReason(p), Dropped: dropped, Conditions: conds})
	}
	rep.InferredChecks = spec.InferredChecks()
	rep.EvidenceOnly = spec.EvidenceOnly()
	if err := writeJSON(c.OutOrStdout(), rep); err != nil {
		return err
	}
	if !rep.Valid {
		return &exitError{code: exitBlocked, err: errors.New("sessiongate.yaml does not match the protocol")}
	}
	return nil
}

// printSuiteTimeouts warns, phase by phase, when the project's CI lets a
// phase's configured command run longer than command_timeout (pass 27 c5,
// issue 25 item 10): the gate kills the suite there, and an honest QA gate
// fails. Init says it for the command it picks; lint says it for every
// command in sessiongate.yaml, whichever runner it is.
func (a *app) printSuiteTimeouts(ctx context.Context, w io.Writer, spec *protocolspec.Spec, commands map[string]string) {
	if len(commands) == 0 {
		return
	}
	r, err := a.gitRepo(ctx)
	if err != nil {
		return
	}
	cfg, err := a.config(ctx)
	if err != nil {
		return
	}
	limit := time.Duration(cfg.CommandTimeout)
	if limit <= 0 {
		limit = time.Duration(config.Default().CommandTimeout)
	}
	for i := range spec.Phases {
		p := &spec.Phases[i]
		cmd := commands[p.ID]
		if d := config.CITimeoutFor(r.Root(), cmd); d > limit {
			fmt.Fprintf(w, "warning: %s: the CI gives %q up to %s, and the gate kills its command after command_timeout (%s): if the suite takes longer, set command_timeout: %s in sessiongate.yaml, or the %s gate fails honest work\n",
				p.ID, cmd, d, limit, d, p.ID)
		}
	}
}
