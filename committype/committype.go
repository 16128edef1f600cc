// Package committype tells whether a conventional commit's type fits the
// paths the commit changed, roughly: `docs:` that changes no documentation,
// `test:` that changes no test, `ci:` that changes no CI configuration, or
// `feat:` that changes nothing but tests. It needs no session: a commit's
// subject and its changed paths decide.
//
// Mismatch is a reviewer's flag, never a gate. On the squash-merged history of a
// team that asks for conventional commits (rjmurillo/ai-agents, 2,623
// commits), 11 honest commits fit no rule of their type (7 of 415 `docs:`
// commits fixed docstrings or citations in code and tests only, 2 of 73
// `test:` commits changed test corpora under other names, 1 of 25 `ci:`
// and 1 of 495 `feat:`); a stricter rule (every path of the type's kind)
// flagged 118 of the 415 `docs:` commits. Types whose paths say nothing
// (fix, refactor, perf, chore, build, style) are not judged: 32 honest
// `fix:` commits changed only tests.
//
// conventional.go holds the gate's part: whether a subject is a
// Conventional Commits header whose type the protocol's list (or
// commitlint's config-conventional) allows.
package committype

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// headerRE is a Conventional Commits header's type.
var headerRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9-]*)(?:\([^()\r\n]+\))?!?: \S`)
})

// Type is the lower-cased type of a conventional subject ("" when the
// subject is not one). git's fixup!/squash!/amend! wrappers are read
// through: they wrap the commit they name.
func Type(subject string) string {
	for range 16 {
		rest, ok := strings.CutPrefix(subject, "fixup! ")
		if !ok {
			rest, ok = strings.CutPrefix(subject, "squash! ")
		}
		if !ok {
			rest, ok = strings.CutPrefix(subject, "amend! ")
		}
		if !ok {
			break
		}
		subject = strings.TrimSpace(rest)
	}
	m := headerRE().FindStringSubmatch(subject)
	if m == nil {
		return ""
	}
	return strings.ToLower(m[1])
}

// Mismatch says why a commit of this subject does not fit the paths it
// changed ("" when it fits, when its type is not judged, or when it
// changed nothing). Paths are repository-relative with forward slashes;
// the caller leaves out the files the protocol asks every session to
// write (its session log, its handoff), which any commit may carry.
//
// comments, when not nil, says whether every line the commit changed in a
// file is a comment or blank: a `docs:` commit that rewords a code comment
// documents the code (the honest commits that fit no path rule were such).
func Mismatch(subject string, paths []string, comments func(path string) bool) string {
	if len(paths) == 0 {
		return ""
	}
	t := Type(subject)
	switch t {
	case "docs", "test", "ci":
		kind := map[string]func(string) bool{"docs": IsDocs, "test": IsTest, "ci": IsCI}[t]
		for _, p := range paths {
			if kind(p) {
				return ""
			}
		}
		if t == "docs" && comments != nil {
			for _, p := range paths {
				if comments(p) {
					return ""
				}
			}
		}
		what := map[string]string{"docs": "documentation file nor code comment", "test": "test file", "ci": "CI configuration file"}[t]
		return t + ": changes no " + what + " (" + sample(paths) + ")"
	case "feat":
		for _, p := range paths {
			if !IsTest(p) {
				return ""
			}
		}
		return "feat: changes only tests (" + sample(paths) + ")"
	}
	return ""
}

// sample names up to three paths.
func sample(paths []string) string {
	if len(paths) <= 3 {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:3], ", ") + " and " + strconv.Itoa(len(paths)-3) + " more"
}

var docExt = map[string]bool{".md": true, ".mdx": true, ".markdown": true, ".rst": true, ".txt": true, ".adoc": true, ".asciidoc": true, ".org": true}

// docBaseRE is a project's prose files by name (LICENSE, README.fr, ...).
var docBaseRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(license|licence|readme|changelog|changes|authors|contributors|contributing|notice|copying|history|code_of_conduct|security|codeowners)([.-].*)?$`)
})

// IsDocs reports a documentation file: prose by extension or name, or
// anything under a docs folder (images, generated pages).
func IsDocs(p string) bool {
	base := path.Base(p)
	if docExt[strings.ToLower(path.Ext(base))] || docBaseRE().MatchString(base) {
		return true
	}
	return hasDir(p, "docs", "doc", "documentation")
}

// testBaseRE is a test file by the naming conventions of the common
// runners (go test, pytest, jest/vitest, Pester, JUnit/xUnit, RSpec,
// bats), and test runner scripts named test or tests.
var testBaseRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(_test\.go|^test_.*\.py|_test\.py|^conftest\.py|\.(test|spec)\.[cm]?[jt]sx?|\.tests?\.ps1|tests?\.(cs|java|kt|php|swift)|_spec\.rb|_test\.rb|\.bats|\.snap|^tests?(\.[a-z0-9]+)?)$`)
})

// IsTest reports a test file: by name, or under a test folder.
func IsTest(p string) bool {
	if testBaseRE().MatchString(path.Base(p)) {
		return true
	}
	return hasDir(p, "test", "tests", "__tests__", "spec", "specs", "testdata", "fixtures", "__snapshots__", "e2e", "testing")
}

// ciRE is CI configuration: workflow and runner files of the common
// services, dependency bots and pre-commit.
var ciRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(\.github/(workflows|actions)/|\.gitlab-ci\.yml$|\.gitlab/ci/|\.circleci/|\.travis\.yml$|azure-pipelines|jenkinsfile$|\.buildkite/|\.ci/|\.woodpecker|\.drone\.yml$|\.github/dependabot\.yml$|\.github/renovate|renovate\.json|\.pre-commit-config\.yaml$|\.github/[^/]+\.ya?ml$)`)
})

// IsCI reports a CI configuration file.
func IsCI(p string) bool { return ciRE().MatchString(p) }

// hasDir reports whether a folder of p (not its file name) is one of names,
// any case.
func hasDir(p string, names ...string) bool {
	dirs := strings.Split(p, "/")
	for _, d := range dirs[:len(dirs)-1] {
		for _, n := range names {
			if strings.EqualFold(d, n) {
				return true
			}
		}
	}
	return false
}

// commentPrefixes start a comment line in the common languages (shell,
// Python, YAML, Go, C, JS, SQL, Lua, Lisp, TeX, HTML, batch).
var commentPrefixes = []string{"#", "//", "/*", "*", "--", ";", "%", "<!--", "-->", "rem ", "REM ", "::"}

// CommentOnly reads a -U0 patch (`git diff -U0 A B`) and reports, for each
// file it changes, whether every added and removed line is a comment or
// blank (a shebang counts: it starts with #). A docstring's inner lines
// are not comments by their start, so a docstring change is not one.
func CommentOnly(patch string) map[string]bool {
	out := map[string]bool{}
	file, header := "", false
	for line := range strings.SplitSeq(patch, "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			file, header = "", true
		case header && strings.HasPrefix(line, "@@"):
			header = false
		case header:
			// "--- a/X" then "+++ b/X"; an added file has only the
			// second, a deleted one only the first.
			if f, ok := strings.CutPrefix(line, "+++ b/"); ok {
				file = f
			} else if f, ok := strings.CutPrefix(line, "--- a/"); ok {
				file = f
			}
			if file != "" {
				out[file] = true
			}
		case file != "" && (strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-")):
			if !isComment(strings.TrimSpace(line[1:])) {
				out[file] = false
			}
		}
	}
	return out
}

// CommentLines reports whether every line (of a diff's added and removed
// lines) of file is a comment or blank, read by file's language (its
// extension or name): in C, Go, Rust or JavaScript a line starting with #
// is code (#include, #define, #[derive], a C# #if), in a shell script one
// starting with -- (an option on a continued command) or * (a glob) is,
// and a shebang (#!) is code everywhere (it names the interpreter).
// A file of no language known here counts only "# " and "// " comments
// (a .gitignore's *.log is code). Unlike CommentOnly, which flags a
// commit for review, this decides a gate's verdict, so it errs toward
// code (helper 348).
func CommentLines(file string, lines ...[]string) bool {
	prefixes := commentPrefixesOf(file)
	for _, l := range lines {
		for _, t := range l {
			if !isCommentIn(strings.TrimSpace(t), prefixes) {
				return false
			}
		}
	}
	return true
}

// commentPrefixesOf is the prefixes that start a comment line in file's
// language.
func commentPrefixesOf(file string) []string {
	base := strings.ToLower(path.Base(file))
	switch base {
	case "makefile", "gnumakefile", "dockerfile", "containerfile", "jenkinsfile", "vagrantfile", "gemfile", "rakefile", "podfile", "procfile", "brewfile", "cmakelists.txt", "requirements.txt":
		return []string{"#"}
	}
	if strings.HasPrefix(base, "dockerfile.") || strings.HasSuffix(base, ".dockerfile") {
		return []string{"#"}
	}
	switch path.Ext(base) {
	case ".sh", ".bash", ".zsh", ".ksh", ".fish", ".py", ".pyi", ".pyw", ".rb", ".pl", ".pm", ".r", ".yaml", ".yml", ".toml", ".cfg", ".conf", ".nix", ".cmake", ".ps1", ".psm1", ".psd1", ".jl", ".ex", ".exs", ".cr", ".nim", ".tcl", ".awk", ".sed", ".mk", ".env", ".properties", ".bzl", ".star", ".bazel", ".gd", ".coffee", ".graphql", ".gql":
		return []string{"#"}
	case ".tf", ".hcl", ".tfvars":
		return []string{"#", "//", "/*", "*"}
	case ".php":
		return []string{"//", "/*", "*", "#"}
	case ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".m", ".mm", ".go", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".java", ".kt", ".kts", ".scala", ".swift", ".rs", ".cs", ".dart", ".groovy", ".gradle", ".scss", ".less", ".proto", ".zig", ".sol", ".jsonc", ".json5", ".fs", ".fsx", ".v", ".sv", ".glsl", ".hlsl", ".cu":
		return []string{"//", "/*", "*"}
	case ".css":
		return []string{"/*", "*"}
	case ".sql", ".lua", ".hs", ".elm", ".ada", ".adb", ".ads", ".vhd", ".vhdl":
		return []string{"--", "/*", "*"}
	case ".lisp", ".el", ".clj", ".cljs", ".cljc", ".edn", ".scm", ".rkt", ".asm", ".s", ".ini":
		return []string{";", "#"}
	case ".tex", ".sty", ".cls", ".erl", ".hrl", ".bib":
		return []string{"%"}
	case ".html", ".htm", ".xhtml", ".xml", ".svg", ".xsl", ".xslt", ".vue", ".svelte", ".plist", ".csproj", ".props", ".targets":
		return []string{"<!--", "-->"}
	case ".bat", ".cmd":
		return []string{"rem ", "@rem ", "::"}
	}
	return nil
}

// isCommentIn reports whether t (trimmed) is blank or a comment by
// prefixes; nil prefixes are a file of no known language. A comment that
// closes and is followed by code on its line ("*/ x = 1") is code.
func isCommentIn(t string, prefixes []string) bool {
	if t == "" {
		return true
	}
	if strings.HasPrefix(t, "#!") {
		return false
	}
	if prefixes == nil {
		return t == "#" || t == "//" || strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "##") || strings.HasPrefix(t, "// ") || strings.HasPrefix(t, "///")
	}
	low := strings.ToLower(t)
	for _, p := range prefixes {
		if !strings.HasPrefix(low, p) {
			continue
		}
		switch p {
		case "*":
			// A block comment's inner line ("* text", "*/", "**"), not a
			// dereference or a glob ("*p = 0", "*.log").
			if len(t) > 1 && t[1] != ' ' && t[1] != '\t' && t[1] != '/' && t[1] != '*' {
				continue
			}
		case "#":
			// PHP's and Rust's attributes are code.
			if strings.HasPrefix(t, "#[") {
				continue
			}
		}
		for _, end := range []string{"*/", "-->"} {
			if i := strings.Index(t, end); i >= 0 && strings.TrimSpace(t[i+len(end):]) != "" {
				return false
			}
		}
		return !directive(p, low[len(p):])
	}
	return false
}

// directiveRE is the text of a comment a compiler, interpreter or build
// tool reads: a Go build constraint or cgo line, a TypeScript reference,
// Ruby's frozen_string_literal, a Python coding line, a Dockerfile parser
// directive, a type checker's or linter's switch. Changed alone, it
// changes what is built or how it runs, so it is code (round 61: an
// honest "fix: build greet_unix.go only on unix" changing only its
// //go:build line was "only comments", and its handoff's claim a FAIL).
var directiveRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:go:|\+build\b|<reference\b|@ts-|@jsx|@flow\b|@refresh\b|eslint|prettier-ignore|nolint|noqa|nosec|type:|pylint:|mypy:|pyright:|shellcheck\b|frozen_string_literal:|-\*-|(?:en)?coding[:=]|syntax=|escape=|check=|pragma\b|rubocop:|istanbul\b|c8\s|@vite-ignore|webpack[a-z]*:|fmt:|isort:|tslint:|jshint|jscs:|swiftlint:|clang-format)`)
})

// directive reports whether rest, a comment line after its marker p, is
// one a tool reads (directiveRE). After //, a # is C in a cgo preamble
// (// #include, // #cgo LDFLAGS) or a source map (//# sourceMappingURL).
func directive(p, rest string) bool {
	if p == "//" && strings.HasPrefix(strings.TrimLeft(rest, " \t"), "#") {
		return true
	}
	return directiveRE().MatchString(strings.TrimLeft(rest, "*/! \t"))
}

func isComment(t string) bool {
	if t == "" {
		return true
	}
	for _, p := range commentPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
