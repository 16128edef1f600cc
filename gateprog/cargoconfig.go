package gateprog

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Cargo reads config.toml from the folder it runs in and every folder
// above it, then from $CARGO_HOME (else ~/.cargo), and a `runner = "true"`
// in any of them runs each test binary through `true`: "test result: ok"
// over a failing test. Round 26 dropped the CARGO_* variables; the files
// stayed open (cargo has no switch to skip them). A config file cargo
// reads that changed after the session started and sets anything but
// where things are fetched and how output looks refuses the run; the
// team's committed one, from before the start, is left alone.

// cargoQuiet are the tables (and [build] keys) whose settings change no
// test's outcome.
var cargoQuiet = []string{"net", "http", "term", "registry", "registries", "cargo-new", "credential-alias", "build.jobs", "build.incremental"}

// cargoConfigWhy names the first config file a cargo line (run in root)
// reads that changed after since and sets what decides the run.
func cargoConfigWhy(line string, env []string, root string, since time.Time) string {
	if !slices.ContainsFunc(programs(line), func(w string) bool { return filepath.Base(w) == "cargo" }) {
		return ""
	}
	var files []string
	for d := root; ; d = filepath.Dir(d) {
		files = append(files, filepath.Join(d, ".cargo", "config.toml"), filepath.Join(d, ".cargo", "config"))
		if d == filepath.Dir(d) {
			break
		}
	}
	home, cargoHome := "", ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
		if v, ok := strings.CutPrefix(kv, "CARGO_HOME="); ok {
			cargoHome = v
		}
	}
	if cargoHome == "" && home != "" {
		cargoHome = filepath.Join(home, ".cargo")
	}
	if cargoHome != "" {
		files = append(files, filepath.Join(cargoHome, "config.toml"), filepath.Join(cargoHome, "config"))
	}
	for _, f := range files {
		if !changed(f, since, false) {
			continue
		}
		b, err := boundedread.File(f, 1<<20)
		if err != nil {
			continue
		}
		if k := cargoRunKey(b); k != "" {
			return fmt.Sprintf("cargo reads %s, changed after the session started, which sets %s (it decides what cargo runs)", f, k)
		}
	}
	return ""
}

// cargoRunKey is the first setting of a cargo config outside cargoQuiet
// ("" when none): `target.x86_64-unknown-linux-gnu.runner`, `build.rustc-wrapper`,
// `alias.test`, `profile.test.debug-assertions`, `env.X`...
func cargoRunKey(b []byte) string {
	table := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "[") {
			table = strings.Trim(strings.TrimSpace(strings.SplitN(l, "#", 2)[0]), "[] ")
			continue
		}
		k, _, ok := strings.Cut(l, "=")
		if !ok {
			continue // a value continued over lines
		}
		key := strings.Trim(strings.TrimSpace(k), `"'`)
		if table != "" {
			key = table + "." + key
		}
		if !slices.ContainsFunc(cargoQuiet, func(q string) bool { return key == q || strings.HasPrefix(key, q+".") }) {
			return key
		}
	}
	return ""
}
