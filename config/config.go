// Package config reads sessiongate.yaml, the repository's policy file.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"

	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// FileNames are looked up at the repository root, in order.
var FileNames = []string{"sessiongate.yaml", ".sessiongate.yaml"}

// Config is the whole policy file.
type Config struct {
	// Path is where the config was read from ("" for defaults).
	Path string `yaml:"-"`

	Protocol         string            `yaml:"protocol"`
	RequireSession   bool              `yaml:"require_session"`
	IdleTimeout      Duration          `yaml:"idle_timeout"`
	CommandTimeout   Duration          `yaml:"command_timeout"`
	StoreRawEvidence bool              `yaml:"store_raw_evidence"`
	History          int               `yaml:"history"`
	Commands         map[string]string `yaml:"commands"`
	Hooks            Hooks             `yaml:"hooks"`
	FailMode         string            `yaml:"fail_mode"`
	BypassEnv        string            `yaml:"bypass_env"`
	DocGlobs         []string          `yaml:"doc_globs"`
	SequencePolicy   *policy.Config    `yaml:"sequence_policy"`
	// SessionRecord is where session_end writes the session record: a git
	// ref ("refs/sessiongate/records", the starter's choice: records off
	// the working branch, docs/team.md) or a path template in the worktree
	// ("{session_id}" is replaced; the record is then committed); "" writes none.
	SessionRecord string `yaml:"session_record"`
	// RecordsPush names the remote the records ref is pushed to the moment
	// a violation that must not be laundered (BYPASS, FORCED_ADVANCE,
	// PROTECTED_CHANGE, ...) is written onto it, so the remote holds it
	// before the agent could rewind the local ref and database
	// (docs/team.md, "Violations pushed when they happen"). "" pushes only
	// with the code, as before. Needs session_record to name a ref.
	RecordsPush string `yaml:"records_push"`
	Verify      Verify `yaml:"verify"`
	// Protect makes changes to the protocol, this file and the agent and
	// git hook configs during a session a violation unless a person
	// accepts them (`sessiongate protocol accept`). On by default.
	Protect bool `yaml:"protect"`
	// ProtectedPaths are extra root-anchored globs to protect.
	ProtectedPaths []string `yaml:"protected_paths"`
	// AcceptNonInteractive lets `sessiongate protocol accept --yes --reason`
	// run without a terminal (a provisioning script, a container). A weaker
	// mode (docs/security.md): honoured only while this file is itself as
	// a person accepted it, so an agent cannot switch it on for itself.
	AcceptNonInteractive bool `yaml:"accept_non_interactive"`
	// AcceptSigners are the signers (git's %GS: an ssh allowed-signers
	// principal, or a gpg uid) whose signed commit `protocol accept
	// --signed-commit REV` takes as a person's acceptance, with no terminal.
	// Honoured only while this file is itself as a person accepted it.
	AcceptSigners []string `yaml:"accept_signers"`
	// AgentHooks configures `sessiongate agent-hook` (docs/agents.md).
	AgentHooks AgentHooks `yaml:"agent_hooks"`

	// Observed lists phase ids whose evidence must be observed: a command
	// sessiongate saw run (`sessiongate run`, agent hooks), never a claim.
	Observed []string `yaml:"observed"`

	// UnmarkedPhases is the level of a phase whose heading has no
	// qualifier, when neither a command gate nor its own text decides it
	// (docs/protocol.md, "Binding"): required, blocking, recommended or
	// optional. "" keeps the rule: required when it holds requirements.
	UnmarkedPhases string `yaml:"unmarked_phases"`

	// DefaultBranch is the branch a "do not work on main" check guards,
	// pinned here because origin/HEAD is a local ref the policed agent can
	// repoint in one command (git symbolic-ref); "" trusts origin/HEAD,
	// then main or master. init writes it.
	DefaultBranch string `yaml:"default_branch"`

	// MCPServersElsewhere names MCP servers the team's agents have from a
	// config sessiongate does not read (a managed config, a home it cannot
	// see): typed evidence of a call of their tools is taken. The file is
	// protected during a session, so the agent cannot add a name unseen.
	MCPServersElsewhere []string `yaml:"mcp_servers_elsewhere"`

	pos       map[string]pos // where each key's value is in the file
	phaseRefs []PhaseRef     // phase ids the file names
}

// AgentHooks turns each behaviour of the agent lifecycle hooks on or off.
type AgentHooks struct {
	// Enabled false makes every agent hook answer "allow" and do nothing.
	Enabled bool `yaml:"enabled"`
	// BindSession starts (or resumes) a session when the agent starts.
	BindSession bool `yaml:"bind_session"`
	// Context injects the state summary at session start.
	Context bool `yaml:"context"`
	// DenyBeforeStart denies file edits and git commit/push while the start
	// gates have not passed.
	DenyBeforeStart bool `yaml:"deny_before_start"`
	// Protect denies edits of the protected paths (needs protect: true).
	Protect bool `yaml:"protect"`
	// Observe records shell commands as observed evidence.
	Observe bool `yaml:"observe"`
	// BlockStop blocks a stop while work is done and the end protocol is not.
	BlockStop bool `yaml:"block_stop"`
	// MaxStopBlocks is how many stops in a row are blocked before one is
	// let through and recorded as a violation.
	MaxStopBlocks int `yaml:"max_stop_blocks"`
	// Timeout is the hard limit of one hook run; past it the hook answers
	// with fail_mode.
	Timeout Duration `yaml:"timeout"`
	// FailMode overrides fail_mode for agent hooks: closed denies the tool
	// (a stop is never blocked on an error), open allows.
	FailMode string `yaml:"fail_mode"`
}

// Verify configures `sessiongate verify`.
type Verify struct {
	// MissingTrailer is fail or warn: what a commit without Session-Id gets.
	MissingTrailer string `yaml:"missing_trailer"`
	// Unrecorded is fail or warn: what a commit whose trailers name a
	// session that never recorded it gets ("trailers copied").
	Unrecorded string `yaml:"unrecorded"`
	// Violations is fail or warn: what a commit gets whose session
	// recorded a violation that bypassed the protocol (BYPASS, ...).
	Violations string `yaml:"violations"`
	// RequireSigned makes verify check every commit's signature.
	RequireSigned bool `yaml:"require_signed"`
	// Unsessioned is what a commit no session covers gets: fail, people
	// (default: passes commits the local hook recorded as a person's),
	// agents (fails only commits shown to be an agent's) or allow.
	Unsessioned string `yaml:"unsessioned"`
	// AllowedSigners is a repository path of an ssh allowed-signers file
	// (ssh-keygen ALLOWED SIGNERS) that verify reads as committed at the
	// range's base to check signed acceptances (docs/security.md); ""
	// leaves it to git's gpg.ssh.allowedSignersFile.
	AllowedSigners string `yaml:"allowed_signers"`
}

// Hooks says which phase gates run at which git hook.
type Hooks struct {
	PreCommit []string `yaml:"pre-commit"`
	PrePush   []string `yaml:"pre-push"`
}

// Default is the configuration when no file exists: permissive about
// sessions (a repository that never opted in is not blocked), strict about
// the database (fail closed).
func Default() *Config {
	return &Config{
		RequireSession: false,
		IdleTimeout:    Duration(24 * time.Hour),
		CommandTimeout: Duration(2 * time.Minute),
		History:        5,
		Hooks:          Hooks{PrePush: []string{"QA_VALIDATION"}},
		FailMode:       "closed",
		BypassEnv:      "SESSIONGATE_BYPASS",
		Verify:         Verify{MissingTrailer: "fail", Unrecorded: "fail", Violations: "fail", Unsessioned: "people"},
		Protect:        true,
		AgentHooks: AgentHooks{
			Enabled: true, BindSession: true, Context: true, DenyBeforeStart: true, Protect: true,
			Observe: true, BlockStop: true, MaxStopBlocks: 3, Timeout: Duration(2 * time.Second),
		},
	}
}

// AgentFailMode is the fail mode of agent hooks: agent_hooks.fail_mode,
// else fail_mode.
func (c *Config) AgentFailMode() string {
	if c.AgentHooks.FailMode != "" {
		return c.AgentHooks.FailMode
	}
	return c.FailMode
}

// Load reads the config at the repository root; defaults when there is none.
func Load(root string) (*Config, error) {
	for _, name := range FileNames {
		p := filepath.Join(root, name)
		b, err := boundedread.File(p, boundedread.DefaultLimit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read config: %w", err)
		}
		return Parse(p, b)
	}
	return Default(), nil
}

// Parse decodes a config file. Every problem is an *Error naming the file,
// line and column (Errors when there are several): bytes that are not
// UTF-8, YAML syntax, unknown or duplicate keys at any depth, values of the
// wrong type, and bad values.
func Parse(path string, b []byte) (*Config, error) {
	c := Default()
	c.Path = path
	if err := checkText(path, b); err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, syntaxError(path, b, err)
	}
	if len(root.Content) > 0 { // an empty file means all defaults
		doc := root.Content[0]
		k := &checker{file: path, pos: map[string]pos{}}
		k.walk(doc, reflect.TypeOf(c).Elem(), "")
		if len(k.errs) > 0 {
			return nil, k.errs
		}
		c.pos, c.phaseRefs = k.pos, k.refs
		if err := doc.Decode(c); err != nil {
			return nil, decodeError(path, &root, err)
		}
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// at is an error about key, placed at its value when the file has it.
func (c *Config) at(key, format string, a ...any) error {
	p := c.pos[key]
	return &Error{File: c.Path, Line: p.line, Col: p.col, Msg: fmt.Sprintf(format, a...)}
}

func (c *Config) validate() error {
	switch c.FailMode {
	case "closed", "open":
	default:
		return c.at("fail_mode", "fail_mode must be closed or open, not %q", c.FailMode)
	}
	if c.IdleTimeout < 0 {
		return c.at("idle_timeout", "idle_timeout must be positive")
	}
	if c.CommandTimeout < 0 {
		return c.at("command_timeout", "command_timeout must be positive")
	}
	switch c.AgentHooks.FailMode {
	case "", "closed", "open":
	default:
		return c.at("agent_hooks.fail_mode", "agent_hooks.fail_mode must be closed or open, not %q", c.AgentHooks.FailMode)
	}
	if c.AgentHooks.MaxStopBlocks < 0 {
		return c.at("agent_hooks.max_stop_blocks", "agent_hooks.max_stop_blocks must be >= 0")
	}
	if c.AgentHooks.Timeout <= 0 || time.Duration(c.AgentHooks.Timeout) > time.Minute {
		return c.at("agent_hooks.timeout", "agent_hooks.timeout must be between 1ms and 1m, not %s", c.AgentHooks.Timeout)
	}
	if c.History < 0 {
		return c.at("history", "history must be >= 0")
	}
	switch c.Verify.MissingTrailer {
	case "fail", "warn":
	default:
		return c.at("verify.missing_trailer", "verify.missing_trailer must be fail or warn, not %q", c.Verify.MissingTrailer)
	}
	switch c.Verify.Unsessioned {
	case "fail", "people", "agents", "allow":
	default:
		return c.at("verify.unsessioned", "verify.unsessioned must be fail, people, agents or allow, not %q", c.Verify.Unsessioned)
	}
	switch c.Verify.Unrecorded {
	case "fail", "warn":
	default:
		return c.at("verify.unrecorded", "verify.unrecorded must be fail or warn, not %q", c.Verify.Unrecorded)
	}
	switch c.Verify.Violations {
	case "fail", "warn":
	default:
		return c.at("verify.violations", "verify.violations must be fail or warn, not %q", c.Verify.Violations)
	}
	if _, err := c.SequencePolicy.Rules("", ""); err != nil {
		return c.at("sequence_policy", "sequence_policy: %v", err)
	}
	if session.IsRecordRef(c.SessionRecord) {
		if err := recordref.ValidRef(c.SessionRecord); err != nil {
			return c.at("session_record", "%v", err)
		}
	} else if _, err := session.RecordPath(c.SessionRecord, "x"); err != nil {
		return c.at("session_record", "%v", err)
	}
	if r := c.RecordsPush; r != "" {
		if !session.IsRecordRef(c.SessionRecord) {
			return c.at("records_push", "records_push %q needs session_record to name a ref (refs/sessiongate/records): there is nothing to push", r)
		}
		if strings.HasPrefix(r, "-") || strings.ContainsAny(r, " \t\n") {
			return c.at("records_push", "records_push %q: want a remote name such as origin, or a URL", r)
		}
	}
	for i, p := range c.ProtectedPaths {
		q := filepath.ToSlash(strings.TrimSpace(p))
		if q == "" || strings.HasPrefix(q, "/") || filepath.IsAbs(p) || q == ".." || strings.HasPrefix(q, "../") || strings.Contains(q, "/../") {
			return c.at(fmt.Sprintf("protected_paths[%d]", i), "protected_paths[%d] %q: want a glob relative to the repository root", i, p)
		}
	}
	for i, id := range c.Observed {
		if !phaseIDRE().MatchString(id) {
			return c.at(fmt.Sprintf("observed[%d]", i), "observed[%d] %q: want a phase id such as QA_VALIDATION (sessiongate protocol show lists them)", i, id)
		}
	}
	if c.UnmarkedPhases != "" {
		if _, ok := protocolspec.ParseGateLevel(c.UnmarkedPhases); !ok {
			return c.at("unmarked_phases", "unmarked_phases must be required, blocking, recommended or optional, not %q", c.UnmarkedPhases)
		}
	}
	if b := c.DefaultBranch; b != "" && !branchNameRE().MatchString(b) {
		return c.at("default_branch", "default_branch %q: want a branch name such as main (no refs/ prefix, spaces or leading dash)", b)
	}
	for i, n := range c.MCPServersElsewhere {
		if !mcpServerRE().MatchString(n) {
			return c.at(fmt.Sprintf("mcp_servers_elsewhere[%d]", i), "mcp_servers_elsewhere[%d] %q: want an MCP server's name as its tools spell it (serena for mcp__serena__...)", i, n)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(c.Commands)) {
		if strings.TrimSpace(c.Commands[id]) == "" {
			return c.at("commands."+id, "commands.%s is empty", id)
		}
	}
	return nil
}

// Engine returns the part of the config the session engine uses.
func (c *Config) Engine() session.Config {
	return session.Config{
		IdleTimeout:         time.Duration(c.IdleTimeout),
		StoreRawEvidence:    c.StoreRawEvidence,
		Commands:            c.Commands,
		CommandTimeout:      time.Duration(c.CommandTimeout),
		HistorySize:         c.History,
		DocGlobs:            c.DocGlobs,
		Policy:              c.SequencePolicy,
		SessionRecord:       c.SessionRecord,
		RecordsPush:         c.RecordsPush,
		Protect:             c.Protect,
		ProtectedPaths:      c.ProtectedPaths,
		ProtocolPath:        c.Protocol,
		ObservedPhases:      c.Observed,
		UnmarkedPhases:      c.unmarked(),
		DefaultBranch:       c.DefaultBranch,
		MCPServersElsewhere: c.MCPServersElsewhere,
	}
}

// unmarked is unmarked_phases as a gate level ("" when unset).
func (c *Config) unmarked() protocolspec.GateLevel {
	g, _ := protocolspec.ParseGateLevel(c.UnmarkedPhases)
	return g
}

// branchNameRE is a plain branch name: what git check-ref-format takes,
// short of its rarer rules (git itself refuses the rest).
var branchNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9_.][A-Za-z0-9_./-]{0,199}$`)
})

// mcpServerRE is an MCP server's name as Claude Code spells its tools.
var mcpServerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$`) })

// phaseIDRE is the shape of a phase id (docs/protocol.md, "Phase id").
var phaseIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`) })

// Duration reads "24h", "90s" from YAML.
type Duration time.Duration

func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration (use e.g. 24h, 90s)", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

func (d Duration) String() string { return time.Duration(d).String() }
