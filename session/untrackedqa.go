package session

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/shellline"
)

// QA is judged on the committed tree. An untracked zz_test.go with
// `func TestMain(m *testing.M) { os.Exit(0) }`, or an untracked
// conftest.py that skips every test, makes `go test ./...` or pytest pass
// in the work tree while the committed tree fails (issue 25.7 route 3).
// A QA gate's command, and an observed run for a QA phase, therefore look
// at the untracked files git does not ignore (UntrackedLister) before
// they count: one that the run's runner reads (runnerReads) and that is
// not in the committed tree makes the run no QA of the committed work,
// and the files are named. Scratch files a runner does not read (notes.txt,
// a log, a .md) are left alone.

// UntrackedLister lists untracked, not-ignored files; gitrepo.Repo
// implements it. Exclude sources other than the repository's .gitignore
// files count only when they did not change after since.
type UntrackedLister interface {
	UntrackedFiles(ctx context.Context, since time.Time) ([]string, error)
}

// Runner families and the files each reads on its own.
var (
	goReads = func(f string) bool {
		b := path.Base(f)
		return strings.HasSuffix(b, ".go") || b == "go.mod" || b == "go.sum" || strings.HasPrefix(b, "go.work") ||
			strings.Contains("/"+f, "/testdata/")
	}
	pyReads = func(f string) bool {
		b := path.Base(f)
		switch b {
		case "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "setup.py", "noxfile.py":
			return true
		}
		return strings.HasSuffix(b, ".py") || strings.HasSuffix(b, ".pth") || strings.HasSuffix(b, ".pyi")
	}
	jsReads = func(f string) bool {
		b := path.Base(f)
		for _, ext := range []string{".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".jsx", ".tsx", ".json", ".snap"} {
			if strings.HasSuffix(b, ext) {
				return true
			}
		}
		return b == ".npmrc" || strings.HasPrefix(b, ".mocharc") || strings.HasPrefix(b, ".babelrc") || b == ".yarnrc" || b == ".yarnrc.yml"
	}
	otherReads = func(f string) bool {
		b := path.Base(f)
		for _, ext := range []string{".sh", ".bash", ".rb", ".rs", ".java", ".kt", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".php", ".mk", ".bats"} {
			if strings.HasSuffix(b, ext) {
				return true
			}
		}
		return b == "Makefile" || b == "GNUmakefile" || b == "makefile" || b == "Cargo.toml" || b == "Gemfile" || b == "Rakefile"
	}
)

// runnerReads returns the predicate of the files a command line's runners
// read: by its programs (go; pytest and python; npm, node and their test
// runners), else every family (make, a script, an unknown program).
func runnerReads(line string) func(string) bool {
	var fams []func(string) bool
	known := true
	for _, k := range shellline.Keys(line) {
		prog, _, _ := strings.Cut(k, " ")
		switch path.Base(prog) {
		case "go", "gotestsum":
			fams = append(fams, goReads)
		case "pytest", "python", "python3", "py.test", "tox", "nox", "uv", "poetry", "hatch", "pdm":
			fams = append(fams, pyReads)
		case "npm", "npx", "node", "yarn", "pnpm", "bun", "deno", "jest", "vitest", "mocha", "tsx", "ts-node":
			fams = append(fams, jsReads)
		case "cd", "echo", "true", "set", "export":
		default:
			known = false
		}
	}
	if !known || len(fams) == 0 {
		fams = []func(string) bool{goReads, pyReads, jsReads, otherReads}
	}
	return func(f string) bool {
		for _, r := range fams {
			if r(f) {
				return true
			}
		}
		return false
	}
}

// untrackedRead lists the untracked, not-ignored files of repo that the
// runners of line read (nil when repo cannot list them).
func untrackedRead(ctx context.Context, repo Repo, s *Session, line string) ([]string, error) {
	l, ok := repo.(UntrackedLister)
	if !ok {
		return nil, nil
	}
	files, err := l.UntrackedFiles(ctx, s.CreatedAt)
	if err != nil {
		return nil, fmt.Errorf("list untracked files: %w", err)
	}
	reads := runnerReads(line)
	var out []string
	for _, f := range files {
		if reads(f) && !agentConfigFile(f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// agentConfigFile: an agent's or sessiongate's own config left untracked
// (`install --agent claude` writes .claude/settings.json, which a team may
// keep uncommitted). No test runner reads it, and protection polices it: the
// real Claude Code run of the starter protocol was refused QA over it.
func agentConfigFile(f string) bool {
	if slices.Contains(DefaultProtectedPaths, f) {
		return true
	}
	switch path.Ext(f) {
	case ".json", ".toml", ".yaml", ".yml", ".md":
	default:
		return false
	}
	for _, dir := range []string{".claude/", ".gemini/", ".codex/", ".cursor/", ".github/hooks/", ".vscode/"} {
		if strings.HasPrefix(f, dir) {
			return true
		}
	}
	return false
}

// qaPhase is a phase that runs the tests: QA by name, or one whose
// command sessiongate.yaml sets (Engine.isQAPhase, for a gate's config).
func qaPhase(p *protocolspec.Phase, cfg Config) bool {
	if _, ok := cfg.Commands[p.ID]; ok {
		return true
	}
	return isQA(p)
}

// untrackedMsg says why a run that saw files is no QA of the committed work.
func untrackedMsg(files []string) string {
	return fmt.Sprintf("the work tree has untracked files the run reads, which the committed tree does not have (%s): this is no QA of the committed work; stage them (git add: the run then sees them, and the end checks the commit holds what it saw) or commit them, delete them, or ignore them in a committed .gitignore, then run it again", shorten.List(files, 5))
}
