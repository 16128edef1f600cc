package testrun

import (
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/shellline"
)

// globalEnv reads lookupEnv as it is at the call (tests swap it).
func globalEnv(name string) (string, bool) { return lookupEnv(name) }

// A skip or early return behind a condition on an environment variable
// is how honest tests skip (no database URL, not on CI), so such a
// condition was a guard whatever the run's environment held. The lazy
// agent added `if os.Getenv("GREET_SKIP") != "" { return }` to the test
// its change broke and exported GREET_SKIP=1 in its shell (or used LANG,
// which every shell has): the QA gate's command inherits the caller's
// environment, so the test returned before its check, and the session
// ended COMPLETE, clean, verify passing (round 17,
// TestAdv17EnvSkip). In a test that ran before the change (platOK), an
// environment read is now the value this run's environment holds: a skip
// that fires in the run being judged is no guard. New tests keep the old
// reading (a new test that skips without a database is honest).

// lookupEnv is the environment a run is judged by when its caller gives
// none (SkipsAdded): the process's. A variable for tests.
var lookupEnv = os.LookupEnv

// LookupEnv answers a skip condition's environment reads: the value a
// variable had in the judged run, and whether it was set.
type LookupEnv func(name string) (string, bool)

// envSetToken stands for a read of a variable the run set to a value its
// command line does not spell (`GREET_SKIP=$(cat f) go test`): set and
// taken as non-empty, so `!= ""` holds and `== "1"` stays unknown.
const envSetToken = `__sessiongate_env_set__`

// opaqueValue is RunEnv's value for such a variable.
const opaqueValue = "\x00opaque"

// unsetValue is StrictEnv's value for a variable the run did not have.
const unsetValue = "\x00unset"

// StrictEnv is env (nil: this process's) taken as the whole environment
// of the judged run: a variable it lacks reads as missing, so in a test
// that ran at the base a condition that fires because one is unset
// (`os.Getenv("DB_URL") == ""`) fires. Verify's rerun guard judges with it
// in CI: the old test ran there, without the variable, before the change
// skipped it. The local rule keeps such a condition a guard (a person's
// shell may lack what CI sets). New tests are judged the same either way.
func StrictEnv(env LookupEnv) LookupEnv {
	if env == nil {
		env = globalEnv
	}
	return func(name string) (string, bool) {
		if v, ok := env(name); ok && v != "" {
			return v, true
		}
		return unsetValue, true // unset, or set empty (read as missing)
	}
}

// RunEnv is the environment a test command line ran with (issue 25 round
// 18, E1): base (the recording process's, or a gate's command
// environment; nil: this process's) overlaid with what the line sets for
// its test commands (shellline.TestEnv): `GREET_SKIP=1 go test ./...`,
// `export`, `env X=1`, `set -a`, `make test X=1`. The agent hook that
// records a run has the agent's process environment, not the one its
// shell gave the command; judged by that, a skip the line turned on read
// as off.
func RunEnv(base LookupEnv, line string) LookupEnv {
	if base == nil {
		base = lookupEnv
	}
	le := shellline.TestEnv(line, base)
	if le.Empty() {
		return base
	}
	return func(name string) (string, bool) {
		switch {
		case le.Unset[name]:
			return "", false
		case le.Opaque[name]:
			return opaqueValue, true
		}
		if v, ok := le.Set[name]; ok {
			return v, true
		}
		if le.Cleared {
			return "", false
		}
		return base(name)
	}
}

// EnvOf is a LookupEnv over an environment list (NAME=VALUE, the last
// one wins as in exec).
func EnvOf(environ []string) LookupEnv {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(name string) (string, bool) { v, ok := m[name]; return v, ok }
}

var envReadREs = sync.OnceValue(func() (r struct{ goGet, goLookup, pyGet, pyIndex, pyIn, jsEnv *regexp.Regexp }) {
	r.goGet = regexp.MustCompile(`\bos\.Getenv\(\s*"(\w+)"\s*\)`)
	r.goLookup = regexp.MustCompile(`\bos\.LookupEnv\(\s*"(\w+)"\s*\)`)
	r.pyGet = regexp.MustCompile(`\bos\.(?:environ\.get|getenv)\(\s*["'](\w+)["']\s*\)`)
	r.pyIndex = regexp.MustCompile(`\bos\.environ\[\s*["'](\w+)["']\s*\]`)
	r.pyIn = regexp.MustCompile(`["'](\w+)["']\s+(not\s+)?in\s+os\.environ\b`)
	r.jsEnv = regexp.MustCompile(`\bprocess\.env(?:\.(\w+)\b|\[\s*["'\x60](\w+)["'\x60]\s*\])`)
	return r
})

// withEnv replaces each read of a variable set here in c by its value: a
// string literal, True/False for membership, true for os.LookupEnv. An
// unset variable, or a value holding a quote or backslash, is left unread
// (the condition stays unknown: a guard), unless unset: then an unset or
// empty variable reads as what the language gives (envunset.go).
func withEnv(c string, env LookupEnv, unset bool) string {
	if !strings.Contains(c, "env") && !strings.Contains(c, "Env") {
		return c
	}
	lookupEnv := env
	if lookupEnv == nil {
		lookupEnv = globalEnv
	}
	r := envReadREs()
	// Only a variable that is set is read: a condition that fires because
	// one is missing (`os.Getenv("DATABASE_URL") == ""`) is the honest
	// skip of a test that needs a resource, and stays a guard.
	// read is lookupEnv with StrictEnv's unset marker turned into a missing
	// variable that is read as missing (u), as in unset mode.
	read := func(name string) (v string, ok, u bool) {
		v, ok = lookupEnv(name)
		if v == unsetValue {
			return "", false, true // StrictEnv: the run had no such variable
		}
		return v, ok, unset
	}
	lit := func(name string) string {
		v, ok, u := read(name)
		switch {
		case u && !ok:
			return "" // each language's own absent value (below)
		case u && v == "":
			return `""`
		case !ok || v == "":
			return "" // set empty reads as missing
		case v == opaqueValue:
			return envSetToken
		case strings.ContainsAny(v, "\"'`\\\n"):
			return ""
		}
		return `"` + v + `"`
	}
	set := func(name, yes string) string {
		_, ok, u := read(name)
		if ok {
			return yes
		}
		if u {
			return map[string]string{"true": "false", "True": "False", "False": "True"}[yes]
		}
		return ""
	}
	// absent is an unset variable's read in unset mode: Go's os.Getenv
	// gives "", Python's get/getenv None, JS's process.env undefined.
	absent := func(name, none string) string {
		v := lit(name)
		_, ok, u := read(name)
		if v != "" || !u {
			return v
		}
		if ok {
			return ""
		}
		return none
	}
	sub := func(re *regexp.Regexp, f func(m []string) string) {
		c = re.ReplaceAllStringFunc(c, func(s string) string {
			if v := f(re.FindStringSubmatch(s)); v != "" {
				return v
			}
			return s
		})
	}
	sub(r.goGet, func(m []string) string { return absent(m[1], `""`) })
	sub(r.goLookup, func(m []string) string { return set(m[1], "true") })
	sub(r.pyGet, func(m []string) string { return absent(m[1], "None") })
	sub(r.pyIndex, func(m []string) string { return lit(m[1]) }) // unset: a KeyError, not read
	sub(r.pyIn, func(m []string) string { return set(m[1], map[bool]string{true: "False", false: "True"}[m[2] != ""]) })
	sub(r.jsEnv, func(m []string) string { return absent(m[1]+m[2], "undefined") })
	return c
}

var envConstREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"go": regexp.MustCompile(`^\s*(?:var\s+)?(\w+)\s*(?:bool\s*|string\s*)?(?::=|=)\s*([^,;{}]*\bos\.Getenv\([^;{}]*?)\s*(?://.*)?$`),
		"py": regexp.MustCompile(`^\s*(\w+)\s*(?::\s*\w+\s*)?=\s*([^;#]*\bos\.(?:environ|getenv)\b[^;#]*?)\s*(?:#.*)?$`),
		"js": regexp.MustCompile(`^\s*(?:const|let|var)\s+(\w+)\s*=\s*([^;{}]*\bprocess\.env\b[^;{}]*?)\s*;?\s*(?://.*)?$`),
	}
})

// envConsts are the names a test file sets once to an expression that
// reads the environment (`skip := os.Getenv("GREET_SKIP") != ""`), as the
// parenthesized expression: a condition on the name is a condition on the
// variable (round 17: the lazy agent's second try once the read itself was
// judged).
func envConsts(k string, src []byte) map[string]string {
	if k == "conftest" {
		k = "py"
	}
	re := envConstREs()[k]
	if re == nil {
		return nil
	}
	sets := map[string]int{}
	for _, m := range nameREs().assign.FindAllStringSubmatch(string(src), -1) {
		sets[m[1]]++
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(src), "\n") {
		if m := re.FindStringSubmatch(l); m != nil && sets[m[1]] == 1 {
			out[m[1]] = "(" + m[2] + ")"
		}
	}
	return out
}
