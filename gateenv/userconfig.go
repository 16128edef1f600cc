package gateenv

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Per-user configuration files that a runner reads on its own, which the
// agent can write with a shell redirect (no `go env -w` the agent hook
// would see): `GOFLAGS=-exec=true` in ~/.config/go/env makes every `go
// test` report ok without running a test, `node-options=--require x` in
// ~/.npmrc loads the agent's code into every npm script. A gate's command
// reads none of them (issue 25.7):
//
//   - Go: GOENV=off. The module settings a person keeps there
//     (goEnvKept: proxy, private modules, checksum database, GOPATH) are
//     passed as variables, so an honest offline build finds its modules,
//     and so are GOTOOLCHAIN=local and GOFLAGS made only of flags that
//     change no test's verdict (goFlagsKept: -buildvcs=false, -count=1,
//     -v, ...); nothing else that changes what `go test` runs (-exec,
//     -run, -short, -tags, GOEXPERIMENT, CC, CGO_*, GOCACHE) is.
//   - npm: npm_config_userconfig and npm_config_globalconfig point at
//     files no one can create (under /dev/null, which is no folder: npm
//     reads a missing file as empty, and refuses one file for both); the
//     project's own .npmrc, in the repository, still counts.
var goEnvKept = map[string]bool{
	"GOPROXY": true, "GOPRIVATE": true, "GONOPROXY": true, "GONOSUMDB": true, "GONOSUMCHECK": true,
	"GOSUMDB": true, "GOINSECURE": true, "GOPATH": true, "GOMODCACHE": true, "GOAUTH": true,
}

// goFlagsKept are GOFLAGS flags (name before any =) that a person's env
// file may keep: none selects, skips or replaces a test.
var goFlagsKept = map[string]bool{"-buildvcs": true, "-modcacherw": true, "-trimpath": true, "-count": true, "-v": true, "-p": true, "-failfast": true, "-mod": true}

// keptGoSetting reports whether NAME=VALUE of a Go env file passes.
func keptGoSetting(name, val string) bool {
	switch name {
	case "GOTOOLCHAIN":
		return val == "local"
	case "GOFLAGS":
		for _, f := range strings.Fields(val) {
			flag, v, _ := strings.Cut(f, "=")
			if !goFlagsKept[strings.Replace(flag, "--", "-", 1)] || flag == "-mod" && v == "vendor" {
				return false
			}
		}
		return true
	}
	return goEnvKept[name]
}

// userConfig returns the variables that turn per-user runner
// configuration off for env (Clean's result, without the redirecting
// variables) and what it left out of the Go env file.
func userConfig(env []string, callerGOENV string) (set []string, unread []string) {
	have := map[string]bool{}
	var home, xdg string
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		have[name] = true
		switch name {
		case "HOME":
			home = val
		case "XDG_CONFIG_HOME":
			xdg = val
		}
	}
	set = append(set, "GOENV=off")
	file := callerGOENV
	if file == "" || file == "off" {
		file = goEnvFile(xdg, home)
	}
	if file != "" {
		kept, left := readGoEnv(file)
		for _, kv := range kept {
			if name, _, _ := strings.Cut(kv, "="); !have[name] {
				set = append(set, kv)
			}
		}
		for _, name := range left {
			unread = append(unread, name+" from the Go env file")
		}
	}
	set = append(set, "npm_config_userconfig="+npmNoConfig("npmrc"), "npm_config_globalconfig="+npmNoConfig("global-npmrc"))
	return set, unread
}

// goEnvFile is where `go env -w` writes for this environment: os.UserConfigDir's rule.
func goEnvFile(xdg, home string) string {
	switch {
	case xdg != "" && filepath.IsAbs(xdg):
		return filepath.Join(xdg, "go", "env")
	case home != "":
		return filepath.Join(home, ".config", "go", "env")
	}
	return ""
}

// readGoEnv reads a Go env file (NAME=VALUE lines) and returns the
// settings that pass (keptGoSetting) and the names of those that do not.
func readGoEnv(file string) (kept, left []string) {
	f, err := boundedread.Open(file)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, val, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.HasPrefix(name, "#") {
			continue
		}
		val = strings.TrimSpace(val)
		if keptGoSetting(name, val) {
			kept = append(kept, name+"="+val)
		} else {
			left = append(left, name)
		}
	}
	return kept, left
}

// npmNoConfig is a path under os.DevNull: it never exists.
func npmNoConfig(name string) string { return filepath.Join(os.DevNull, name) }
