package session

import (
	"github.com/sessiongate/sessiongate/repopath"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// SpliceFiles puts files into a gate command line in place of its
// {changed[:GLOB]} and {staged[:GLOB]} placeholders, the way a gate does
// (expandCommand): as positional parameters of sh -c, so no file name is
// ever parsed as shell syntax. verify --rerun gives it the range's changed
// files (CI has no staging area: {staged} takes them too). It returns the
// line, the arguments, and how many files were spliced (-1 when the line
// has no placeholder; 0 means the gate has nothing to run).
func SpliceFiles(line string, files []string) (string, []string, int) {
	out, args, n, _ := splice(line, func(protocolspec.Placeholder) ([]string, error) { return files, nil })
	return out, args, n
}

// splice puts the files each placeholder of line takes (filesFor, before
// its glob) in its place as positional parameters of sh -c. It returns the
// line, the arguments and how many files were spliced (-1 when the line
// has no placeholder). One loop for the gate (expandCommand) and for
// verify --rerun (SpliceFiles).
func splice(line string, filesFor func(protocolspec.Placeholder) ([]string, error)) (string, []string, int, error) {
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
		b.WriteString(positional(ph.Quoting, len(args)+1, len(fs)))
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
