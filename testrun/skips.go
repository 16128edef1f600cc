package testrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Tests the session's own change skips do not run (issue 25 item 5, route
// 3): `//go:build ignore` added to a _test.go file drops it from `go test
// ./...`, an unconditional t.Skip, @pytest.mark.skip, a module-level
// pytest.skip, a conftest.py hook that deselects, it.skip/xit or a .only
// leave the same command passing on fewer tests. Skips in test files are
// compared with the start commit: one added, unguarded by a condition,
// makes the run no QA. A skip behind `if` (a missing tool, -short) or a
// skipif with a real condition is how honest tests skip, and counts.

type skipREs struct {
	build, goSkip, pyMark, pySkip, pyConftest, jsSkip, ifLine, always *regexp.Regexp
}

var skipRE = sync.OnceValue(func() skipREs {
	return skipREs{
		build:      regexp.MustCompile(`^//\s*(go:build|\+build)\b`),
		goSkip:     regexp.MustCompile(`\b[a-z]\w*\.Skip(Now|f)?\(`),
		pyMark:     regexp.MustCompile(`(pytest\.mark\.(skip|xfail)\b(\(|$|\s)|@unittest\.skip\(|@unittest\.expectedFailure|pytestmark\s*=.*pytest\.mark\.(skip|xfail)\b)|skip(if|If|Unless)\(\s*(True|1|not\s+False)\s*[,)]`),
		pySkip:     regexp.MustCompile(`\bpytest\.skip\(|raise\s+(unittest\.)?SkipTest\b`),
		pyConftest: regexp.MustCompile(`\bpytest_collection_modifyitems\b|\bpytest_ignore_collect\b|\bcollect_ignore(_glob)?\b|\bdeselect`),
		jsSkip:     regexp.MustCompile(`\b(it|test|describe|context|suite)\.(skip|only|todo)\b|\bx(it|describe|test|context)\s*\(|\bf(it|describe)\s*\(`),
		ifLine:     regexp.MustCompile(`^\s*(\}\s*else\b|if\b|elif\b|else\b|case\b|default\s*:|for\b|while\b|switch\b|unless\b)`),
		always:     regexp.MustCompile(`^\s*if\s*(\(\s*)?(true|True|1|1\s*==\s*1|!false|not\s+False)\s*\)?\s*[{:]`),
	}
})

// FileKind: "go", "py", "conftest" or "js" for a test file, "" else.
func FileKind(f string) string {
	switch {
	case SkippedDir(f):
		return ""
	case path.Base(f) == "conftest.py":
		return "conftest"
	case GoSuite.test(f):
		return "go"
	case PySuite.test(f):
		return "py"
	case JSSuite.test(f):
		return "js"
	}
	return ""
}

// AddedSkip says how line (added to a test file of kind k; prev is the
// nearest non-blank line above it in the file as it is now) skips tests,
// "" when it does not or a condition guards it.
func AddedSkip(k, line, prev string, existed bool) string {
	re := skipRE()
	s := strings.TrimSpace(line)
	guarded := re.ifLine.MatchString(prev) && !re.always.MatchString(prev)
	switch k {
	case "go":
		if existed && re.build.MatchString(s) {
			return "a build constraint, which can leave the file out of `go test`"
		}
		if re.goSkip.MatchString(s) && !guarded {
			return "a skip no condition guards"
		}
	case "py", "conftest":
		if re.pyMark.MatchString(s) {
			return "a skip or xfail marker"
		}
		if re.pySkip.MatchString(s) && (!guarded || line == s) {
			return "a skip no condition guards"
		}
		if k == "conftest" && re.pyConftest.MatchString(s) {
			return "a collection hook or ignore list, which can drop tests"
		}
	case "js":
		if re.jsSkip.MatchString(s) {
			return "a skip, todo or only (which skips every other test)"
		}
	}
	return ""
}

// SkipsAdded lists the skips the session's change added to test files
// (work tree against the start commit), as "file: adds `line`: why".
func SkipsAdded(ctx context.Context, repo Repo, start string) ([]string, error) {
	if start == "" {
		return nil, nil
	}
	changed, err := repo.ChangedFiles(ctx, start)
	if err != nil {
		return nil, fmt.Errorf("list the files changed since the start: %w", err)
	}
	var out []string
	for _, f := range changed {
		k := FileKind(f)
		if k == "" {
			continue
		}
		now, err := os.ReadFile(filepath.Join(repo.Root(), filepath.FromSlash(f)))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // deleted: no skip added
			}
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		existed, err := repo.ExistsAt(ctx, start, f)
		if err != nil {
			return nil, fmt.Errorf("look up %s at the start commit: %w", f, err)
		}
		var was []byte
		if existed {
			if was, err = repo.ReadAt(ctx, start, f); err != nil {
				return nil, fmt.Errorf("read %s at the start commit: %w", f, err)
			}
		}
		count := map[string]int{}
		for _, l := range strings.Split(string(was), "\n") {
			count[strings.TrimSpace(l)]++
		}
		prev := ""
		for _, l := range strings.Split(string(now), "\n") {
			k2 := strings.TrimSpace(l)
			if count[k2] > 0 {
				count[k2]--
			} else if why := AddedSkip(k, l, prev, existed); why != "" {
				out = append(out, fmt.Sprintf("%s: adds %q: %s", f, truncate(k2, 60), why))
			}
			if k2 != "" {
				prev = l
			}
		}
	}
	return out, nil
}
