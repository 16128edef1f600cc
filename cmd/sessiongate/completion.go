package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/session"
)

// registerCompletions gives every flag that takes a known kind of value
// its completion, by flag name, across the whole command tree: phases,
// evidence types, states, agents, MCP clients, requirements, session ids.
func (a *app) registerCompletions(c *cobra.Command) {
	for _, sub := range c.Commands() {
		a.registerCompletions(sub)
	}
	fns := map[string]cobra.CompletionFunc{
		"session":     a.completeSessions,
		"phase":       a.completePhases(false),
		"to":          a.completePhases(true),
		"requirement": a.completeRequirements,
		"type":        fixed(session.EvidenceKinds...),
		"state":       a.completeStates,
		"agent":       listOf(agentNames()),
		"mcp":         listOf(mcpNames()),
	}
	for name, fn := range fns {
		if c.LocalFlags().Lookup(name) != nil {
			if _, ok := c.GetFlagCompletionFunc(name); !ok {
				_ = c.RegisterFlagCompletionFunc(name, fn)
			}
		}
	}
}

func fixed(vals ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// listOf completes the last item of a comma-separated list.
func listOf(vals []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		done := ""
		if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
			done = toComplete[:i+1]
		}
		var out []string
		for _, v := range vals {
			if !strings.Contains(","+done, ","+v+",") {
				out = append(out, done+v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

func agentNames() []string {
	var out []string
	for _, c := range hooks.AgentConfigs {
		out = append(out, c.Name)
	}
	return out
}

func mcpNames() []string {
	var out []string
	for _, c := range hooks.MCPClients {
		out = append(out, c.Name)
	}
	return out
}

func (a *app) completeStates(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var names []string
	for _, s := range session.States {
		names = append(names, string(s))
	}
	return listOf(names)(c, args, toComplete)
}

// completePhases lists the protocol's phase ids (and WORKING for --to).
func (a *app) completePhases(working bool) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		spec, err := a.loadSpec(c.Context())
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, p := range spec.Phases {
			out = append(out, cobra.CompletionWithDesc(p.ID, p.Title))
		}
		if working {
			out = append(out, cobra.CompletionWithDesc(string(session.StateWorking), "the work between the start and end phases"))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeRequirements lists requirement ids (PHASE.slug), of --phase
// when it is given.
func (a *app) completeRequirements(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	spec, err := a.loadSpec(c.Context())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	phase, _ := c.Flags().GetString("phase")
	var out []string
	for _, p := range spec.Phases {
		if phase != "" && p.ID != phase {
			continue
		}
		for _, r := range p.Requirements {
			out = append(out, cobra.CompletionWithDesc(r.ID, oneLine(r.Text, 60)))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeSessions lists session ids, newest first, with state and objective.
func (a *app) completeSessions(c *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	e, err := a.sessionEngine(c.Context())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ss, err := e.Store.ListSessions(c.Context(), session.SessionFilter{Limit: 200})
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, s := range ss {
		if strings.HasPrefix(s.ID, strings.ToLower(toComplete)) {
			out = append(out, cobra.CompletionWithDesc(s.ID, string(s.State)+" "+oneLine(s.Objective, 50)))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeSessionArg completes the optional ID argument.
func (a *app) completeSessionArg(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return a.completeSessions(c, args, toComplete)
}
