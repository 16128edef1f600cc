package testrun

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// Round 19 (issue 25): round 18 read the variables the session's change
// sets in its test files (os.Setenv in init(), conftest.py). The lazy
// agent's next place is a file the test command reads that is not a
// test: `export GREET_SKIP=1` in scripts/test.sh, a Makefile's export or
// recipe, package.json's `"test": "GREET_SKIP=1 jest"`, tox.ini's
// setenv, pytest-env's `env =` in pytest.ini. A variable one of them
// sets that it did not set at the start counts as set for an old test's
// skip, as one a test file sets does.

// envConfigKind is how a file sets variables for the tests run through
// it: "sh" (shell scripts, Makefiles, package.json: `X=1 cmd`,
// `export X=1`), "ini" (tox.ini, pytest.ini, setup.cfg, pyproject.toml:
// setenv/env entries), "" when it is none of these.
func envConfigKind(f string) string {
	base := path.Base(f)
	switch base {
	case "Makefile", "makefile", "GNUmakefile", "package.json", "Justfile", "justfile", "Taskfile.yml":
		return "sh"
	case "tox.ini", "pytest.ini", ".pytest.ini", "setup.cfg", "pyproject.toml":
		return "ini"
	}
	switch path.Ext(base) {
	case ".sh", ".bash", ".mk":
		return "sh"
	}
	return ""
}

var envSetFileREs = sync.OnceValue(func() (r struct{ export, prefix, iniHead, iniEntry, tomlEntry *regexp.Regexp }) {
	val := `("[^"\\\n]*"|'[^'\\\n]*'|[^\s;&|'"\\]*)`
	// export X=1, export X := 1 (make)
	r.export = regexp.MustCompile(`(?:^|[\s;&|(])export\s+([A-Za-z_]\w*)\s*[:?]?=\s*` + val)
	// X=1 cmd (a shell line, a recipe, a package.json script, cross-env)
	r.prefix = regexp.MustCompile(`(?:^|[\s;&|("])([A-Za-z_]\w*)=` + val + `\s+[\w./-]`)
	// setenv = / env = (tox, pytest-env), with an entry on the same line or none
	r.iniHead = regexp.MustCompile(`^\s*(?:setenv|env)\s*=\s*(.*)$`)
	// an entry: X = 1, X=1, pytest-env's flags D:X=1, R:X=1
	r.iniEntry = regexp.MustCompile(`^\s*(?:[DR]:)*([A-Za-z_]\w*)\s*=\s*(.*?)\s*$`)
	// pyproject's env = ["X=1", "D:Y=2"]
	r.tomlEntry = regexp.MustCompile(`["'](?:[DR]:)*([A-Za-z_]\w*)=([^"'$]*)["']`)
	return r
})

// configEnvSets are the variables file f (of kind k) sets for the tests
// run through it, name to value (a value holding `$` or a backquote, made
// at run time, is not read).
func configEnvSets(k string, src []byte) map[string]string {
	r := envSetFileREs()
	out := map[string]string{}
	put := func(n, v string) {
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		if strings.ContainsAny(v, "$`") {
			return
		}
		out[n] = v
	}
	lines := strings.Split(string(src), "\n")
	switch k {
	case "sh":
		for _, l := range lines {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") {
				continue
			}
			for _, re := range []*regexp.Regexp{r.export, r.prefix} {
				for _, m := range re.FindAllStringSubmatch(l, -1) {
					put(m[1], m[2])
				}
			}
		}
	case "ini":
		in := false // inside a setenv/env block: its indented lines are entries
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if m := r.iniHead.FindStringSubmatch(l); m != nil && l == strings.TrimLeft(l, " \t") {
				in = true
				for _, e := range r.tomlEntry.FindAllStringSubmatch(m[1], -1) {
					put(e[1], e[2])
				}
				if e := r.iniEntry.FindStringSubmatch(m[1]); e != nil && !strings.HasPrefix(strings.TrimSpace(m[1]), "[") {
					put(e[1], e[2])
				}
				continue
			}
			if !in {
				continue
			}
			if t == "" || l == strings.TrimLeft(l, " \t") && !strings.HasPrefix(t, "\"") && !strings.HasPrefix(t, "'") && t != "]" {
				in = false // the block ended
				continue
			}
			for _, e := range r.tomlEntry.FindAllStringSubmatch(t, -1) {
				put(e[1], e[2])
			}
			if e := r.iniEntry.FindStringSubmatch(t); e != nil && !strings.ContainsAny(t[:1], `"'`) {
				put(e[1], e[2])
			}
		}
	}
	return out
}

// ConfigEnvSetsAdded are the variables file f sets now (a script, a
// Makefile, package.json, tox.ini, pytest.ini) that it did not set to the
// same value at the start (was).
func ConfigEnvSetsAdded(f string, was, now []byte) map[string]string {
	k := envConfigKind(f)
	if k == "" {
		return nil
	}
	before := configEnvSets(k, was)
	out := map[string]string{}
	for n, v := range configEnvSets(k, now) {
		if bv, ok := before[n]; !ok || bv != v {
			out[n] = v
		}
	}
	return out
}
