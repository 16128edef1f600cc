package logfacts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// A log brought from another project names that project's files. Of the
// real team's 756 session logs (rjmurillo/ai-agents, each read at the
// commit that added it), none named three or more paths of which 80% or
// more existed in neither that commit's tree nor its parent's; the same
// logs judged in a small repository of a few files (a log copied in from
// elsewhere) crossed that line 325 times out of 756 (docs/security.md,
// round 64). A log that names fewer paths is not judged: one or two
// absent names are the scratch files and plans honest logs mention.
const (
	foreignMin   = 3
	foreignShare = 0.8
)

var (
	// pathToken is a repository path as logs write them: folders and a
	// file with an extension (`scripts/greet.sh`, `.agents/HANDOFF.md`).
	// A host name (`github.com/...`) or `scheme:` is no path.
	pathToken = lazyregexp.New(`^(?:\.?[\w-]+/)+[\w.-]*\w\.[A-Za-z]\w{0,7}$`)
	urlToken  = lazyregexp.New(`(?i)\b[a-z][a-z0-9+.-]*://\S+`)
	lineRef   = lazyregexp.New(`(?::\d+)+:?$`) // `greet.sh:12`, `x.go:3:7`
)

// Paths returns the repository paths the log names outside code blocks,
// each once, in order, with the line of its first mention.
func Paths(text []byte) (paths []string, lines []int) { return pathsIn(text, false) }

// pathsIn is Paths, with code blocks read too when code is set (a
// protocol's templates sit in them).
func pathsIn(text []byte, code bool) (paths []string, lines []int) {
	seen := map[string]bool{}
	for _, l := range proseLines(text) {
		if l.code && !code {
			continue
		}
		t := urlToken.ReplaceAllString(l.text, " ")
		for _, tok := range strings.FieldsFunc(t, func(r rune) bool { return !isPathRune(r) }) {
			tok = strings.TrimRight(lineRef.ReplaceAllString(tok, ""), ".:")
			tok = strings.TrimPrefix(tok, "./")
			if seen[tok] || !pathToken.MatchString(tok) {
				continue
			}
			seen[tok] = true
			paths = append(paths, tok)
			lines = append(lines, l.n)
		}
	}
	return paths, lines
}

func isPathRune(r rune) bool {
	return r < 128 && (isNameByte(byte(r)) || r == '/' || r == ':' || r == '@')
}

// Foreign finds a log that names mostly paths this repository does not
// hold: at least foreignMin paths, foreignShare of them absent (exists
// says whether a path is the repository's). Paths the protocol's text
// names are left out: every log filled from its template names them,
// whoever's it is. It returns the line of the first absent path and the
// absent paths.
func Foreign(text, protocol []byte, exists func(string) bool) (int, []string, bool) {
	all, allLines := Paths(text)
	common := map[string]bool{}
	if len(all) >= foreignMin && len(protocol) > 0 {
		pp, _ := pathsIn(protocol, true)
		for _, p := range pp {
			common[p] = true
		}
	}
	var paths []string
	var lines []int
	for i, p := range all {
		if !common[p] {
			paths = append(paths, p)
			lines = append(lines, allLines[i])
		}
	}
	if len(paths) < foreignMin {
		return 0, nil, false
	}
	var absent []string
	first := 0
	for i, p := range paths {
		if !exists(p) {
			if first == 0 {
				first = lines[i]
			}
			absent = append(absent, p)
		}
	}
	if float64(len(absent)) < foreignShare*float64(len(paths)) {
		return 0, nil, false
	}
	return first, absent, true
}

// repoPaths answers whether a path named in a log is the repository's:
// a file or folder of its index, of the session's start, among the files
// the session changed, or on disk in the work tree (an ignored build
// output or scratch file an honest log names). A path written relative to
// a folder (`greet/greet.go` for `cmd/greet/greet.go`) counts too.
func repoPaths(ctx context.Context, s Session) (func(string) bool, error) {
	files := map[string]bool{}
	add := func(out string) {
		for _, f := range strings.Split(out, "\n") {
			if f != "" {
				files[f] = true
			}
		}
	}
	out, err := git(ctx, s.Root, "ls-files", "-z")
	if err != nil {
		return nil, fmt.Errorf("list the index: %w", err)
	}
	add(strings.ReplaceAll(out, "\x00", "\n"))
	if s.Start != "" {
		out, err := git(ctx, s.Root, "ls-tree", "-r", "-z", "--name-only", s.Start)
		if err != nil {
			return nil, fmt.Errorf("list the session's start: %w", err)
		}
		add(strings.ReplaceAll(out, "\x00", "\n"))
	}
	for _, f := range s.Changed {
		files[f] = true
	}
	held := PathSet(files)
	return func(p string) bool {
		if held(p) {
			return true
		}
		_, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(p)))
		return err == nil
	}, nil
}

// PathSet answers whether a path a log names is one of files, a folder
// of them, or one of them written relative to a folder (`greet/greet.go`
// for `cmd/greet/greet.go`).
func PathSet(files map[string]bool) func(string) bool {
	dirs := map[string]bool{}
	suffixes := map[string]bool{}
	for f := range files {
		for i := 0; i < len(f); i++ {
			if f[i] == '/' {
				dirs[f[:i]] = true
				suffixes[f[i+1:]] = true
			}
		}
	}
	return func(p string) bool { return files[p] || dirs[p] || suffixes[p] }
}
