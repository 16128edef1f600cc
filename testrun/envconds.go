package testrun

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

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

// lookupEnv is the environment the gate's command runs with: the
// process's (gateenv drops only runner-redirecting variables, never one
// a skip condition names). A variable for tests.
var lookupEnv = os.LookupEnv

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
// (the condition stays unknown: a guard).
func withEnv(c string) string {
	if !strings.Contains(c, "env") && !strings.Contains(c, "Env") {
		return c
	}
	r := envReadREs()
	// Only a variable that is set is read: a condition that fires because
	// one is missing (`os.Getenv("DATABASE_URL") == ""`) is the honest
	// skip of a test that needs a resource, and stays a guard.
	lit := func(name string) string {
		v, ok := lookupEnv(name)
		switch {
		case !ok || v == "":
			return "" // set empty reads as missing
		case strings.ContainsAny(v, "\"'`\\\n"):
			return ""
		}
		return `"` + v + `"`
	}
	set := func(name, yes string) string {
		if _, ok := lookupEnv(name); ok {
			return yes
		}
		return ""
	}
	sub := func(re *regexp.Regexp, f func(m []string) string) {
		c = re.ReplaceAllStringFunc(c, func(s string) string {
			if v := f(re.FindStringSubmatch(s)); v != "" {
				return v
			}
			return s
		})
	}
	sub(r.goGet, func(m []string) string { return lit(m[1]) })
	sub(r.goLookup, func(m []string) string { return set(m[1], "true") })
	sub(r.pyGet, func(m []string) string { return lit(m[1]) })
	sub(r.pyIndex, func(m []string) string { return lit(m[1]) })
	sub(r.pyIn, func(m []string) string { return set(m[1], map[bool]string{true: "False", false: "True"}[m[2] != ""]) })
	sub(r.jsEnv, func(m []string) string { return lit(m[1] + m[2]) })
	return c
}

// lookupEnvGuard rewrites the `ok` of `if _, ok := os.LookupEnv("X"); ok`
// (init is the part before the `;`) as the lookup itself, so withEnv can
// read it.
func lookupEnvGuard(init, c string) string {
	m := regexp.MustCompile(`^\s*\w+\s*,\s*(\w+)\s*:?=\s*(os\.LookupEnv\(\s*"\w+"\s*\))\s*$`).FindStringSubmatch(init)
	if m == nil {
		return c
	}
	return regexp.MustCompile(`\b`+m[1]+`\b`).ReplaceAllString(c, m[2])
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
