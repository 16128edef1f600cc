package toolneed

import (
	"regexp"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// A requirement to write a file ("Complete the handoff from the Handoff
// Template", "Update `.agents/HANDOFF.md` with ...") is met by the file,
// changed in this session, not by a note saying it was written (issue 25
// route 4): a one-line manual claim wrote nothing. Which files it asks for
// is read here; session/writereq.go checks the file.

var writeVerbRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:write|create|complete|update|fill\s+(?:in|out)|append)\b`)
})

// Writes returns the globs of the files a requirement asks to write:
// the paths it names, or, naming none, the files the phase's template
// placeholder check covers (the file made from the template). nil when the
// requirement does not ask to write a file (a negative one, "Do not update
// X", asks not to).
func Writes(p *protocolspec.Phase, r protocolspec.Requirement) []string {
	if r.Level == protocolspec.LevelMustNot || r.Level == protocolspec.LevelShouldNot || !writeVerbRE().MatchString(r.Text) {
		return nil
	}
	if named := r.NamedPaths(); len(named) > 0 {
		return named
	}
	var out []string
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckNoPlaceholders && c.Arg != "" {
			out = append(out, c.Arg)
		}
	}
	return out
}

// NewEachSession reports whether the requirement asks for a new file
// per session: a family of files (a glob: the protocol's
// YYYY-MM-DD-NN.md) that it asks to create, or that the phase's template
// makes ("Complete the handoff from the Handoff Template"). The lazy agent
// appended a line to the earlier session's handoff and recorded it:
// changed in this session, no copy, COMPLETE (adversarial pass 4). A fixed
// path ("Update `.agents/HANDOFF.md`") is one file every session updates.
func NewEachSession(p *protocolspec.Phase, r protocolspec.Requirement, targets []string, rel string) bool {
	fromTemplate := len(r.NamedPaths()) == 0
	if !fromTemplate && !createVerbRE().MatchString(r.Text) {
		return false
	}
	for _, g := range targets {
		if repopath.HasMeta(g) && repopath.Match(g, rel) {
			return true
		}
	}
	return false
}

var createVerbRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bcreate\b`) })
