// Package claudesettings reads which tools a Claude Code settings file
// sends to a command hook: the matcher groups of one hook event whose
// command hooks run a given command. It needs no session and no git.
//
// Claude Code decides how to read a matcher by its characters: "", "*"
// or no matcher match every tool; a value of only letters, digits, "_",
// "-", spaces, "," and "|" is a list of exact tool names; anything else is
// a JavaScript regular expression, unanchored ("Edit" in "Write|Edit|.*"
// matches NotebookEdit too). RE2 reads the patterns hook configs use the
// same way; one it cannot compile matches nothing here.
package claudesettings

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/tailscale/hujson"
)

// group is one matcher group of a hook event.
type group struct {
	Matcher string `json:"matcher"`
	Hooks   []struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	} `json:"hooks"`
}

// Routes reports whether settings (JSON with comments, as Claude Code
// reads it) sends tool's calls at event ("PreToolUse") to a command hook
// whose command starts with prefix. A file that does not parse routes
// nothing.
func Routes(settings []byte, event, tool, prefix string) bool {
	std, err := hujson.Standardize(append([]byte(nil), settings...))
	if err != nil {
		return false
	}
	var doc struct {
		Hooks map[string][]group `json:"hooks"`
	}
	if json.Unmarshal(std, &doc) != nil {
		return false
	}
	for _, g := range doc.Hooks[event] {
		ours := false
		for _, h := range g.Hooks {
			if (h.Type == "" || h.Type == "command") && strings.HasPrefix(strings.TrimSpace(h.Command), prefix) {
				ours = true
			}
		}
		if ours && Matches(g.Matcher, tool) {
			return true
		}
	}
	return false
}

var exactList = lazyregexp.New(`^[A-Za-z0-9_, |-]*$`)

// Matches reports whether a hook matcher matches a tool name, as Claude
// Code reads it.
func Matches(matcher, tool string) bool {
	m := strings.TrimSpace(matcher)
	if m == "" || m == "*" {
		return true
	}
	if exactList.MatchString(m) {
		for _, name := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if strings.TrimSpace(name) == tool {
				return true
			}
		}
		return false
	}
	re, err := regexp.Compile(m)
	return err == nil && re.MatchString(tool)
}
