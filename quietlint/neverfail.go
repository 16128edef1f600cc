package quietlint

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// CannotFail returns why a linter run on line could not have failed
// whatever it found, or "": it was told to exit 0 on findings (`flake8
// --exit-zero`, `pylint --exit-zero`, `ruff check --exit-zero`,
// `golangci-lint run --issues-exit-code=0`, pylint's `--fail-under` below
// any score's floor) or given no rule to check (`pylint --disable=all`
// with nothing enabled, eslint's `--no-config-lookup`/`--no-eslintrc`
// with no config or rule). A run that cannot fail is no lint evidence
// (issue 25, round 20 t5). Behaviour measured with the real tools where
// installable (quietlint/neverfail_real_test.go).
func CannotFail(line string) string {
	for _, words := range shellline.Programs(line) {
		prog, args := anyLinter(words)
		if prog == "" {
			continue
		}
		if why := neverFails(prog, args); why != "" {
			return prog + " " + why + ": a lint run that cannot fail is no lint evidence"
		}
	}
	return ""
}

// anyLinter is linter for the linters CannotFail knows, run directly, as
// `python -m NAME`, or through npx and friends.
func anyLinter(words []string) (string, []string) {
	for len(words) > 0 {
		name := filepath.Base(words[0])
		switch {
		case name == "npx" || name == "bunx" || name == "pnpx":
			words = dropFlags(words[1:])
		case name == "pnpm" || name == "yarn":
			words = words[1:]
			if len(words) > 0 && (words[0] == "exec" || words[0] == "dlx" || words[0] == "run") {
				words = words[1:]
			}
		case name == "uv" || name == "poetry" || name == "pipenv" || name == "hatch" || name == "pdm":
			words = words[1:] // `uv run`, `poetry run`
			if len(words) > 0 && words[0] == "run" {
				words = dropFlags(words[1:])
			}
		case strings.HasPrefix(name, "python"):
			ws := words[1:]
			if len(ws) > 1 && ws[0] == "-m" {
				words = ws[1:]
				continue
			}
			return "", nil
		case name == "ruff":
			if len(words) > 1 && words[1] == "check" {
				return name, words[2:]
			}
			return "", nil
		case name == "golangci-lint":
			if len(words) > 1 && words[1] == "run" {
				return name, words[2:]
			}
			return "", nil
		case name == "flake8" || name == "pylint" || name == "eslint" || name == "shellcheck" || name == "markdownlint-cli2":
			return name, words[1:]
		case name == "markdownlint" || name == "markdownlint-cli":
			return "markdownlint", words[1:] // read only for its config (configfail.go)
		default:
			return "", nil
		}
	}
	return "", nil
}

// neverFails reads a linter's options; the last word of an option wins,
// as in each tool's own parser.
func neverFails(prog string, args []string) string {
	opt := func(a, name string) (string, bool) { // --name=value
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
		return "", false
	}
	var (
		exitZero, noConfig, disabledAll bool
		why                             string
		rules                           int // rules, configs or plugins given on the line
		issuesExit                      = ""
		failUnder                       = ""
	)
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		if a == "--" {
			break
		}
		// flake8 and pylint parse with Python's argparse, which takes any
		// unambiguous prefix of a long option (`--exit-z`, `--disab=all`,
		// measured) and a short option's value attached (`-dall`); an
		// ambiguous prefix is an error (a failing run), so a prefix is
		// read as the option it begins.
		py := func(long, short string) (string, bool) {
			return argparseOpt(a, long, short, next)
		}
		switch prog {
		case "flake8":
			if _, ok := py("--exit-zero", ""); ok {
				exitZero = true
			}
		case "ruff":
			if a == "--exit-zero" || a == "-e" {
				exitZero = true
			}
			if a == "--no-exit-zero" {
				exitZero = false
			}
		case "pylint":
			if _, ok := argparseFlag(a, "--exit-zero"); ok {
				exitZero = true
			} else if v, ok := py("--fail-under", ""); ok {
				failUnder = v
			} else if strings.HasPrefix(a, "--ev") { // "--e" is ambiguous: pylint refuses it
				if v, ok := py("--evaluation", ""); ok && constantEvaluation(v) {
					why = "ran with --evaluation=" + clip(v) + " (a score naming no message count: every file rates the same and it exits 0 on findings)"
				}
			} else if v, ok := py("--disable", "-d"); ok {
				if hasWord(v, "all") {
					disabledAll = true
				}
			} else if _, ok := py("--enable", "-e"); ok {
				rules++
			}
		case "golangci-lint":
			v, ok := opt(a, "--issues-exit-code")
			if a == "--issues-exit-code" {
				v, ok = next(), true
			}
			if ok {
				issuesExit = v
			}
		case "eslint":
			switch {
			case a == "--no-config-lookup" || a == "--no-eslintrc":
				noConfig = true
			case a == "-c" || a == "--config" || a == "--rule" || a == "--plugin":
				rules++
				next()
			case strings.HasPrefix(a, "--config=") || strings.HasPrefix(a, "--rule=") || strings.HasPrefix(a, "--plugin="):
				rules++
			}
		}
	}
	switch {
	case exitZero:
		why = "ran with --exit-zero (it exits 0 whatever it finds)"
	case issuesExit != "" && strings.TrimSpace(issuesExit) == "0":
		why = "ran with --issues-exit-code=0 (it exits 0 whatever it finds)"
	case failUnder != "" && belowZero(failUnder):
		why = "ran with --fail-under=" + clip(failUnder) + " (at or below the lowest score it reports, 0: it exits 0 on findings)"
	case disabledAll && rules == 0:
		why = "ran with every check disabled (--disable=all) and none enabled: it checked nothing"
	case noConfig && rules == 0:
		why = "ran with no config lookup and no config or rule given: it checked no rule"
	}
	return why
}

// argparseFlag: a is the value-less option long or a prefix of it.
func argparseFlag(a, long string) (string, bool) {
	return "", len(a) >= 3 && strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && strings.HasPrefix(long, a)
}

// argparseOpt reads a as argparse would for the option long (or short):
// `--long=v`, `--lo=v`, `--long v`, `-sv`, `-s v`, `-s=v`. A value-less
// flag (--exit-zero) is read with next nil.
func argparseOpt(a, long, short string, next func() string) (string, bool) {
	if strings.HasPrefix(a, "--") {
		key, v, inline := strings.Cut(a, "=")
		if len(key) < 3 || !strings.HasPrefix(long, key) {
			return "", false
		}
		if inline || long == "--exit-zero" {
			return v, true
		}
		return next(), true
	}
	if short != "" && strings.HasPrefix(a, short) {
		if a == short {
			return next(), true
		}
		return strings.TrimPrefix(a[len(short):], "="), true
	}
	return "", false
}

func hasWord(list, w string) bool {
	for _, f := range strings.Split(list, ",") {
		if strings.EqualFold(strings.TrimSpace(f), w) {
			return true
		}
	}
	return false
}

// belowZero: pylint's default evaluation clamps the score to 0..10
// (max(0, ...); measured with pylint 2.16: an undefined name rated
// 0.00/10, exit 0 under fail-under=0), so a threshold at or under 0
// passes files full of findings; an honest --fail-under=8 stays.
func belowZero(v string) bool {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return err == nil && f <= 0
}

// constantEvaluation: a pylint evaluation formula naming none of the
// message counts rates every file the same, so its threshold never
// fails (evaluation=10.0: rated 10.00/10 over findings, exit 0).
func constantEvaluation(v string) bool {
	v = strings.ToLower(strings.Trim(strings.TrimSpace(v), `"'`))
	if v == "" {
		return false
	}
	for _, n := range []string{"fatal", "error", "warning", "refactor", "convention", "info"} {
		if strings.Contains(v, n) {
			return false
		}
	}
	return true
}
