// Package cmdsplice puts files into a gate command line in place of its
// {changed[:GLOB]} and {staged[:GLOB]} placeholders: as positional
// parameters of sh -c, so no file name is ever parsed as shell syntax.
// The gate (session) and verify --rerun share it; it needs no session.
package cmdsplice

import (
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// SpliceFiles puts files into a gate command line in place of its
// {changed[:GLOB]} and {staged[:GLOB]} placeholders, the way a gate does
// (session's expandCommand): as positional parameters of sh -c, so no file name is
// ever parsed as shell syntax. verify --rerun gives it the range's changed
// files (CI has no staging area: {staged} takes them too). It returns the
// line, the arguments, and how many files were spliced (-1 when the line
// has no placeholder; 0 means the gate has nothing to run).
func SpliceFiles(line string, files []string) (string, []string, int) {
	out, args, n, _ := Splice(line, func(protocolspec.Placeholder) ([]string, error) { return files, nil })
	return out, args, n
}

// Splice puts the files each placeholder of line takes (filesFor, before
// its glob) in its place as positional parameters of sh -c. It returns the
// line, the arguments and how many files were spliced (-1 when the line
// has no placeholder). One loop for the gate (session's expandCommand) and for
// verify --rerun (SpliceFiles).
func Splice(line string, filesFor func(protocolspec.Placeholder) ([]string, error)) (string, []string, int, error) {
	phs := protocolspec.Placeholders(line)
	if len(phs) == 0 {
		return line, nil, -1, nil
	}
	var args []string
	var b strings.Builder
	last := 0
	for _, ph := range phs {
		fs, err := filesFor(ph)
		if err != nil {
			return "", nil, 0, err
		}
		if ph.Glob != "" {
			fs = repopath.Filter(fs, ph.Glob)
		}
		b.WriteString(line[last:ph.Start])
		b.WriteString(Positional(ph.Quoting, len(args)+1, len(fs)))
		for _, f := range fs {
			// A file named "--fix.md" must not reach the command as an option.
			if strings.HasPrefix(f, "-") {
				f = "./" + f
			}
			args = append(args, f)
		}
		last = ph.End
	}
	b.WriteString(line[last:])
	return b.String(), args, len(args), nil
}

// Positional refers to n positional parameters from first on, each one
// word, written for the quoting context the placeholder sits in.
func Positional(q protocolspec.Quoting, first, n int) string {
	if n == 0 {
		return ""
	}
	refs := make([]string, n)
	for i := range refs {
		refs[i] = "${" + strconv.Itoa(first+i) + "}"
	}
	switch q {
	case protocolspec.InDoubleQuotes:
		return strings.Join(refs, `" "`)
	case protocolspec.InSingleQuotes:
		return `'"` + strings.Join(refs, `" "`) + `"'`
	}
	return `"` + strings.Join(refs, `" "`) + `"`
}
