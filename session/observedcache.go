package session

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sessiongate/sessiongate/internal/ctime"
	"github.com/sessiongate/sessiongate/shellline"
)

// An observed run (the agent's own `go test`, `pytest`, `npx eslint`)
// ran in the agent's environment, where caches keyed by a file's mtime
// answer for files whose mtime the agent set back (`touch -r`): a gate's
// command is protected (GOFLAGS=-count=1, PYTHONPYCACHEPREFIX, the
// session's files set to now), an observed run is not. cachedRun says
// why such a run's pass may be an earlier run's, "" when nothing shows
// it. The output is read here and not kept (only its hash is).

// goCachedRe is a go test package line answered from the test cache, in
// plain output or -json (where the tab is written \t).
var goCachedRe = regexp.MustCompile(`(?m)(^|")ok(\s|\\t)+[^\s\\]+(\s|\\t)+\(cached\)`)

// cachedRun: root is the work tree, changed the files the session changed.
func cachedRun(root string, changed []string, cmd string, out []byte) string {
	if goCachedRe.Match(out) {
		return "go test answered from its cache ((cached)): a cached result is an earlier run's, which a data file with its mtime set back also gets; run `go test -count=1`"
	}
	if why := lintCached(cmd); why != "" {
		return why
	}
	if py := stalePycs(root, changed); len(py) > 0 {
		return fmt.Sprintf("Python may have run bytecode compiled before %s last changed (%s): remove __pycache__ and run again, or run it through `sessiongate run`", py[0], strings.Join(py, ", "))
	}
	return ""
}

// lintCached: eslint --cache and ruff (which caches unless told not to)
// skip a file whose cache entry matches its mtime and size (eslint's
// default strategy, ruff's key), and the cache file is in the work tree,
// where the agent can write one.
func lintCached(cmd string) string {
	for _, words := range shellline.Programs(cmd) {
		for i, w := range words {
			switch filepath.Base(w) {
			case "eslint":
				for _, a := range words[i+1:] {
					if a == "--cache" || strings.HasPrefix(a, "--cache=") && a != "--cache=false" {
						return "eslint ran with --cache: a file whose cache entry matches is not linted again; run it without --cache"
					}
				}
			case "ruff":
				rest := words[i+1:]
				if len(rest) == 0 || rest[0] != "check" && rest[0] != "format" {
					break // ruff version, ruff rule ...: no files linted
				}
				no := false
				for _, a := range rest {
					no = no || a == "--no-cache" || a == "-n"
				}
				if !no {
					return "ruff ran with its cache: a file whose cache entry matches its mtime is not checked again; run `ruff check --no-cache`"
				}
			}
		}
	}
	return ""
}

// stalePycs lists the session's .py files whose __pycache__ bytecode
// Python would load though it may predate them: one that checks nothing
// (an unchecked-hash .pyc), or one whose recorded mtime and size match
// the source while the bytecode was written before the source last
// changed. The change time (ctime) is the kernel's, which `touch -r`
// cannot set back; Python, seeing a source newer than what it recorded,
// writes fresh bytecode, so an honest run leaves none older than it.
func stalePycs(root string, changed []string) []string {
	var out []string
	for _, f := range changed {
		if !strings.HasSuffix(f, ".py") {
			continue
		}
		src := filepath.Join(root, filepath.FromSlash(f))
		fi, err := os.Stat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		changedAt, err := ctime.Of(src)
		if err != nil {
			continue
		}
		stem := strings.TrimSuffix(filepath.Base(src), ".py")
		pycs, _ := filepath.Glob(filepath.Join(filepath.Dir(src), "__pycache__", globEscape(stem)+".*.pyc"))
		for _, pyc := range pycs {
			b := make([]byte, 16)
			pf, err := os.Open(pyc)
			if err != nil {
				continue
			}
			n, _ := pf.Read(b)
			pi, serr := pf.Stat()
			pf.Close()
			if n < 16 || serr != nil {
				continue
			}
			flags := binary.LittleEndian.Uint32(b[4:])
			stale := false
			switch {
			case flags&1 == 1: // hash-based
				stale = flags&2 == 0 // unchecked: Python never looks at the source
			default: // timestamp-based: what Python compares
				same := binary.LittleEndian.Uint32(b[8:]) == uint32(fi.ModTime().Unix()) && binary.LittleEndian.Uint32(b[12:]) == uint32(fi.Size())
				stale = same && pi.ModTime().Before(changedAt)
			}
			if stale {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// pythonShadows lists the session's changed .py files Python does not
// import from their source: an extension module beside it (greet.so,
// greet.cpython-311-x86_64-linux-gnu.so, greet.pyd) is imported first,
// and a deleted one still imports from a legacy greet.pyc beside it. A
// test of greet then tests the compiled file, built from whatever source.
func pythonShadows(root string, changed []string) []string {
	var out []string
	for _, f := range changed {
		if !strings.HasSuffix(f, ".py") {
			continue
		}
		dir := path.Dir(f)
		stem := strings.TrimSuffix(path.Base(f), ".py")
		abs := filepath.Join(root, filepath.FromSlash(dir))
		var found []string
		for _, pat := range []string{stem + ".so", stem + ".*.so", stem + ".pyd", stem + ".*.pyd"} {
			m, _ := filepath.Glob(filepath.Join(abs, globEscape(pat[:len(stem)])+pat[len(stem):]))
			found = append(found, m...)
		}
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); os.IsNotExist(err) {
			if _, err := os.Lstat(filepath.Join(abs, stem+".pyc")); err == nil {
				found = append(found, filepath.Join(abs, stem+".pyc"))
			}
		}
		for _, m := range found {
			rel, _ := filepath.Rel(root, m)
			out = append(out, fmt.Sprintf("%s imports %s, not its source", f, filepath.ToSlash(rel)))
		}
	}
	return out
}

// globEscape quotes the glob metacharacters of a file name.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
	return r.Replace(s)
}

// shadowedSources is pythonShadows for the session's files, for a QA gate
// before its command runs.
func shadowedSources(ctx context.Context, repo Repo, s *Session) ([]string, error) {
	changed, err := repo.ChangedFiles(ctx, s.StartCommit)
	if err != nil {
		return nil, fmt.Errorf("list the session's files for compiled Python beside them: %w", err)
	}
	return pythonShadows(repo.Root(), changed), nil
}
