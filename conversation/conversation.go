// Package conversation keeps, per worktree, which agent conversations the
// hooks saw and whether each is open: a file log under the git directory,
// with no session engine behind it.
package conversation

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/shorten"
)

// Agent conversations (issue 25, "ending a session is a person's act").
// The process tree cannot tell a person from an agent that detached
// itself (setsid, a double fork, a script started by a daemon): the
// process re-parents to init. The agent's conversation can: every agent
// hook names it (Claude Code's and Gemini CLI's session_id, Codex's and
// Copilot's session id, Cursor's conversation_id), so the hooks keep, per
// worktree, which conversations are open. A person act (terminate,
// delete, accept, init --commit) made while one is open is not taken as a
// person's word, whatever the process tree says (docs/security.md).

// Idle is how long after its last hook a conversation that
// never said it ended (no SessionEnd) counts as open. Agents sit idle
// between prompts for minutes; half an hour covers a long tool call and a
// coffee, and a conversation left overnight is not held against a person.
const Idle = 30 * time.Minute

// Conversation is one agent conversation as the hooks saw it in one
// worktree: its opaque id (never its content), when its hooks ran, and the
// sessiongate sessions it was bound to.
type Conversation struct {
	Agent     string    `json:"agent"`
	ID        string    `json:"id"`
	Worktree  string    `json:"worktree"`
	FirstHook time.Time `json:"first_hook"`
	LastHook  time.Time `json:"last_hook"`
	// Closed is set by the agent's end event (SessionEnd, sessionEnd);
	// a later hook of the same conversation (a resume) opens it again.
	Closed *time.Time `json:"closed,omitempty"`
	// Sessions are the sessiongate sessions bound to it, oldest first.
	Sessions []string `json:"sessions,omitempty"`
	// Removed are sessions of it that a person act ended or deleted.
	Removed []Removal `json:"removed,omitempty"`
}

// Removal is a session of a conversation ended by a person act.
type Removal struct {
	SessionID string    `json:"session_id"`
	Act       string    `json:"act"` // terminate, delete
	At        time.Time `json:"at"`
	// During: an agent conversation was open in the worktree; Signed:
	// the act was signed (--sign), the one proof CI takes then.
	During bool `json:"during_open_conversation"`
	Signed bool `json:"signed"`
	// EndNotAgents: the act saw the conversation closed, but its next hook
	// was not a start event, so the end was not the agent's (Touch).
	EndNotAgents bool `json:"end_not_agents,omitempty"`
}

// Open reports whether the conversation counts as open at now.
func (c *Conversation) Open(now time.Time) bool {
	return c.Closed == nil && now.Sub(c.LastHook) < Idle
}

// Name is the conversation as messages and records name it: agent:id.
func (c *Conversation) Name() string { return c.Agent + ":" + c.ID }

// Log keeps the conversations of a repository's worktrees in
// one small file each under Dir (.git/sessiongate/conversations, where the
// hooks already write the database), written whole and renamed into
// place: two hooks of different conversations never touch the same file,
// and a reader never sees half a file. A file's modification time is its
// conversation's last hook: a hook that changes nothing else (every tool
// call of an open conversation) moves the time alone instead of
// rewriting the file (Touch), and readers take the later of the two.
type Log struct {
	Dir string
}

// LogAt is the log of a repository whose git common folder is
// commonDir.
func LogAt(commonDir string) Log {
	return Log{Dir: filepath.Join(commonDir, "sessiongate", "conversations")}
}

func (l Log) file(worktree, agent, id string) string {
	sum := sha256.Sum256([]byte(worktree + "\x00" + agent + "\x00" + id))
	return filepath.Join(l.Dir, hex.EncodeToString(sum[:16])+".json")
}

func (l Log) get(worktree, agent, id string) (*Conversation, error) {
	b, err := os.ReadFile(l.file(worktree, agent, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read conversation %s:%s: %w", agent, id, err)
	}
	var c Conversation
	if err := json.Unmarshal(b, &c); err != nil {
		// A damaged file is replaced whole by this hook.
		return &Conversation{Agent: agent, ID: id, Worktree: worktree}, nil
	}
	if info, err := os.Stat(l.file(worktree, agent, id)); err == nil {
		c.lastHookFrom(info)
	}
	return &c, nil
}

// lastHookFrom takes the file's time as the last hook when it is later:
// Touch moves the time alone.
func (c *Conversation) lastHookFrom(info fs.FileInfo) {
	if t := info.ModTime().UTC(); t.After(c.LastHook) {
		c.LastHook = t
	}
}

func (l Log) put(c *Conversation) error {
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		return fmt.Errorf("create the conversation log: %w", err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	dst := l.file(c.Worktree, c.Agent, c.ID)
	tmp, err := os.CreateTemp(l.Dir, ".conv-*")
	if err != nil {
		return fmt.Errorf("write conversation %s: %w", c.Name(), err)
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil && !c.LastHook.IsZero() {
		// The file's time is the last hook (Touch moves it alone).
		werr = os.Chtimes(tmp.Name(), c.LastHook, c.LastHook)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), dst)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write conversation %s: %w", c.Name(), werr)
	}
	return nil
}

// Hook is what a hook means to the conversation log.
type Hook int

// Hooks.
const (
	HookOther Hook = iota // a tool call, a prompt, a stop
	HookStart             // the agent's start event (startup, resume, clear)
	HookEnd               // the agent's end event (SessionEnd, sessionEnd)
)

// Touch records a hook of a conversation at now; HookEnd marks it closed,
// any other hook opens it.
func (l Log) Touch(worktree, agent, id string, now time.Time, hook Hook) error {
	if err := ValidateID(id); err != nil {
		return err
	}
	c, err := l.get(worktree, agent, id)
	if err != nil {
		return err
	}
	if c == nil {
		c = &Conversation{Agent: agent, ID: id, Worktree: worktree, FirstHook: now}
	}
	if c.FirstHook.IsZero() {
		c.FirstHook = now
	}
	if c.Closed == nil && hook != HookEnd && !c.FirstHook.IsZero() {
		// Nothing but the last hook changes: move the file's time (one
		// call) rather than write and rename the file on every tool call.
		if err := os.Chtimes(l.file(worktree, agent, id), now, now); err == nil {
			return nil
		}
	}
	c.LastHook = now
	if c.Closed != nil && hook == HookOther {
		// An agent that really ended its conversation comes back with a
		// start event (a resume); a tool call or prompt right after the end
		// means the end was not the agent's (`sessiongate agent-hook
		// claude SessionEnd` run by hand with a payload naming its own
		// conversation): what was removed meanwhile was removed during it.
		for i := range c.Removed {
			if !c.Removed[i].At.Before(*c.Closed) && !c.Removed[i].During {
				c.Removed[i].During, c.Removed[i].EndNotAgents = true, true
			}
		}
	}
	c.Closed = nil
	if hook == HookEnd {
		t := now
		c.Closed = &t
	}
	return l.put(c)
}

// Bind records that the conversation acts for session sid. When sid is
// new to it, it returns the conversation as it was before (nil when the
// log did not know it): its earlier sessions and the removals among them.
func (l Log) Bind(worktree, agent, id, sid string, now time.Time) (before *Conversation, added bool, err error) {
	c, err := l.get(worktree, agent, id)
	if err != nil {
		return nil, false, err
	}
	if c == nil {
		c = &Conversation{Agent: agent, ID: id, Worktree: worktree, FirstHook: now, LastHook: now}
	} else {
		cp := *c
		cp.Sessions = slices.Clone(c.Sessions)
		before = &cp
	}
	if slices.Contains(c.Sessions, sid) {
		return nil, false, nil
	}
	c.Sessions = append(c.Sessions, sid)
	return before, true, l.put(c)
}

// List returns the conversations of a worktree, newest hook first.
func (l Log) List(worktree string) ([]Conversation, error) {
	ents, err := os.ReadDir(l.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the conversation log: %w", err)
	}
	var out []Conversation
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(l.Dir, e.Name()))
		if err != nil {
			continue
		}
		var c Conversation
		if json.Unmarshal(b, &c) != nil {
			// A damaged file (an edit to hide a conversation) names no
			// worktree: it counts as open in every one until the idle time
			// after its last change has passed, the safe side for a person act.
			if info, err := e.Info(); err == nil {
				out = append(out, Conversation{Agent: "unknown", ID: "damaged " + e.Name(), Worktree: worktree, LastHook: info.ModTime()})
			}
			continue
		}
		if c.Worktree == worktree {
			if info, err := e.Info(); err == nil {
				c.lastHookFrom(info)
			}
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastHook.After(out[j].LastHook) })
	return out, nil
}

// OpenIn returns the conversations open in a worktree at now.
func (l Log) OpenIn(worktree string, now time.Time) ([]Conversation, error) {
	all, err := l.List(worktree)
	if err != nil {
		return nil, err
	}
	var out []Conversation
	for i := range all {
		if all[i].Open(now) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

// NoteRemoval records, on every conversation of the worktree that was
// bound to session sid, that a person act removed it.
func (l Log) NoteRemoval(worktree, sid string, r Removal) error {
	all, err := l.List(worktree)
	if err != nil {
		return err
	}
	for i := range all {
		c := &all[i]
		if !slices.Contains(c.Sessions, sid) {
			continue
		}
		r.SessionID = sid
		c.Removed = append(c.Removed, r)
		if err := l.put(c); err != nil {
			return err
		}
	}
	return nil
}

// Removal returns the removal of session sid the conversation recorded.
func (c *Conversation) Removal(sid string) (Removal, bool) {
	for _, r := range c.Removed {
		if r.SessionID == sid {
			return r, true
		}
	}
	return Removal{}, false
}

// ErrID: the agent's conversation (session) id is missing or unusable.
var ErrID = errors.New("invalid agent session id")

// ValidateID checks an agent's conversation id before it names a file or
// a binding: 1 to 200 printable ASCII characters, no spaces.
func ValidateID(id string) error {
	if id == "" || len(id) > 200 {
		return fmt.Errorf("%w: want 1 to 200 characters, got %d", ErrID, len(id))
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return fmt.Errorf("%w %q: only printable ASCII without spaces", ErrID, shorten.Bytes(id, 64, "..."))
		}
	}
	return nil
}
