package main

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/docmention"
	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// docsGlobNote says when a docs gate's condition (when=docs_affected on
// changed_since_start GLOB) can never hold in this repository: it has docs
// (README.rst, guide.adoc) but none GLOB matches, so nothing they mention
// makes the gate bind. The protocol file is not one of the docs. "" when it can hold, or when the files cannot be
// listed (not a repository: nothing to say).
func docsGlobNote(c protocolspec.Check, protocol string, files func() []string) string {
	if c.When != docmention.Condition || c.Kind != protocolspec.CheckChangedSinceStart {
		return ""
	}
	var other []string
	for _, f := range files() {
		if !docmention.IsDoc(f) || strings.HasSuffix("/"+filepath.ToSlash(protocol), "/"+f) {
			continue // the protocol describes the session, not the project
		}
		if repopath.Match(c.Arg, f) {
			return ""
		}
		other = append(other, f)
	}
	if len(other) == 0 {
		return ""
	}
	if len(other) > 3 {
		other = append(other[:3:3], "...")
	}
	return "no doc here matches " + c.Arg + " (" + strings.Join(other, ", ") + " do not): this condition never holds; give the gate the glob your docs use"
}

// repoFiles lists the repository's tracked and untracked, not ignored,
// files (once), as paths from its root.
func repoFiles() func() []string {
	var files []string
	done := false
	return func() []string {
		if done {
			return files
		}
		done = true
		// gitenv: the repository is found from the folder, not from a GIT_DIR
		// the caller exported.
		top, err := gitenv.Command(context.Background(), "", nil, "rev-parse", "--show-toplevel").Output()
		if err != nil {
			return nil
		}
		out, err := gitenv.Command(context.Background(), strings.TrimSpace(string(top)), nil, "ls-files", "-co", "--exclude-standard", "-z").Output()
		if err != nil {
			return nil
		}
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
		return files
	}
}
