package gateprog_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// TestWhyVersionManagers: issue 25 item 7, round 27's open row: a
// version manager's shim is unchanged while a version folder planted
// during the session (installs/python/3.11.99/bin/pytest printing "1
// passed") is selected by a version file rewritten then. Played with
// the real mise (its shims, its choice of version read from mise.toml);
// asdf's and nodenv's shims are written by hand from their templates (the
// tools are not installed here). Honest twins: the version file moved to
// a version installed before the start; `mise reshim` re-making the links
// during the session.
func TestWhyVersionManagers(t *testing.T) {
	py := "/usr/bin/python3"
	consoleScript := sprintf(pipScript, py)
	plant := func(t *testing.T, data, tool, ver, name string) {
		write(t, filepath.Join(data, "installs", tool, ver, "bin", name), "#!/bin/sh\necho '1 passed'\n", 0o755)
	}
	for _, c := range []struct {
		name     string
		manager  string // "mise", "asdf", "nodenv"
		prog     string
		after    func(t *testing.T, data, proj string)
		want     string
		realMise bool
	}{
		{name: "lazy: mise.toml selects a version folder planted during the session", manager: "mise", prog: "pytest", realMise: true,
			after: func(t *testing.T, data, proj string) {
				plant(t, data, "python", "3.11.99", "pytest")
				write(t, filepath.Join(proj, "mise.toml"), "[tools]\npython = \"3.11.99\"\n", 0o644)
			}, want: "3.11.99/bin/pytest changed after the session started"},
		{name: "lazy: the same through .tool-versions", manager: "mise", prog: "pytest", realMise: true,
			after: func(t *testing.T, data, proj string) {
				plant(t, data, "python", "3.11.99", "pytest")
				os.Remove(filepath.Join(proj, "mise.toml"))
				write(t, filepath.Join(proj, ".tool-versions"), "python 3.11.99\n", 0o644)
			}, want: "3.11.99/bin/pytest changed after the session started"},
		{name: "honest: mise.toml moved to a version installed before the start, mise reshim", manager: "mise", prog: "pytest", realMise: true,
			after: func(t *testing.T, data, proj string) {
				write(t, filepath.Join(proj, "mise.toml"), "[tools]\npython = \"3.11.8\"\n", 0o644)
				os.RemoveAll(filepath.Join(data, "shims"))
				miseRun(t, data, proj, "reshim")
			}},
		{name: "lazy: an asdf shim (by hand), a planted version", manager: "asdf", prog: "pytest",
			after: func(t *testing.T, data, proj string) {
				plant(t, data, "python", "3.11.99", "pytest")
				write(t, filepath.Join(proj, ".tool-versions"), "python 3.11.99\n", 0o644)
			}, want: "3.11.99/bin/pytest changed after the session started"},
		// Review 28 (c10): the installed version's program rewritten and
		// its times set back with touch -r from its sibling version.
		{name: "lazy: asdf, 3.11.7's pytest rewritten, touch -r from 3.11.8's", manager: "asdf", prog: "pytest",
			after: func(t *testing.T, data, proj string) {
				p := filepath.Join(data, "installs", "python", "3.11.7", "bin", "pytest")
				write(t, p, "#!/bin/sh\necho '1 passed'\n", 0o755)
				if out, err := exec.Command("touch", "-r", filepath.Join(data, "installs", "python", "3.11.8", "bin", "pytest"), p).CombinedOutput(); err != nil {
					t.Fatalf("touch -r: %v %s", err, out)
				}
			}, want: "3.11.7/bin/pytest changed after the session started"},
		{name: "lazy: the asdf shim itself rewritten, touch -r from its old self", manager: "asdf", prog: "pytest",
			after: func(t *testing.T, data, proj string) {
				p := filepath.Join(data, "shims", "pytest")
				if out, err := exec.Command("sh", "-c", "touch -r "+p+" "+p+".t && printf '#!/bin/sh\\necho 1 passed\\n' > "+p+" && touch -r "+p+".t "+p+" && rm "+p+".t").CombinedOutput(); err != nil {
					t.Fatalf("rewrite: %v %s", err, out)
				}
			}, want: "changed after the session started"},
		{name: "honest: an asdf shim, nothing planted", manager: "asdf", prog: "pytest",
			after: func(t *testing.T, data, proj string) {
				write(t, filepath.Join(proj, ".tool-versions"), "python 3.11.8\n", 0o644)
			}},
		{name: "lazy: a nodenv shim (by hand), a planted node", manager: "nodenv", prog: "node",
			after: func(t *testing.T, data, proj string) {
				write(t, filepath.Join(data, "versions", "99.0.0", "bin", "node"), "#!/bin/sh\necho ok\n", 0o755)
				write(t, filepath.Join(proj, ".node-version"), "99.0.0\n", 0o644)
			}, want: "99.0.0/bin/node changed after the session started"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.realMise {
				if _, err := exec.LookPath("mise"); err != nil {
					t.Skip("mise not installed")
				}
			}
			data, proj := filepath.Join(t.TempDir(), "data"), t.TempDir()
			var shims string
			switch c.manager {
			case "mise":
				for _, v := range []string{"3.11.7", "3.11.8"} {
					write(t, filepath.Join(data, "installs", "python", v, "bin", "pytest"), consoleScript, 0o755)
				}
				write(t, filepath.Join(proj, "mise.toml"), "[tools]\npython = \"3.11.7\"\n", 0o644)
				miseRun(t, data, proj, "trust", "-q", proj)
				miseRun(t, data, proj, "reshim")
				shims = filepath.Join(data, "shims")
			case "asdf":
				for _, v := range []string{"3.11.7", "3.11.8"} {
					write(t, filepath.Join(data, "installs", "python", v, "bin", "pytest"), consoleScript, 0o755)
				}
				shims = filepath.Join(data, "shims")
				write(t, filepath.Join(shims, "pytest"), "#!/usr/bin/env bash\n# asdf-plugin: python 3.11.7\n# asdf-plugin: python 3.11.8\nexec "+filepath.Join(data, "bin", "asdf")+" exec \"pytest\" \"$@\" # asdf_allow: ' asdf '\n", 0o755)
			case "nodenv":
				node, err := exec.LookPath("node")
				if err != nil {
					t.Skip("node not installed")
				}
				if err := os.MkdirAll(filepath.Join(data, "versions", "20.0.0", "bin"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(node, filepath.Join(data, "versions", "20.0.0", "bin", "node")); err != nil {
					t.Fatal(err)
				}
				shims = filepath.Join(data, "shims")
				write(t, filepath.Join(shims, "node"), "#!/usr/bin/env bash\nset -e\n[ -n \"$NODENV_DEBUG\" ] && set -x\n\nprogram=\"${0##*/}\"\n\nexport NODENV_ROOT=\""+data+"\"\nexec \"/usr/lib/nodenv/libexec/nodenv\" exec \"$program\" \"$@\"\n", 0o755)
			}
			env := []string{"PATH=" + shims + string(os.PathListSeparator) + os.Getenv("PATH"), "MISE_DATA_DIR=" + data}
			line := c.prog + " -q"
			st := gateprog.Record(env, []string{line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			c.after(t, data, proj)
			if c.realMise && c.want != "" {
				// the real mise runs the planted version through its shim
				if out := miseRun(t, data, proj, "exec", "--", "pytest"); !strings.Contains(out, "1 passed") {
					t.Fatalf("mise did not select the planted version: %q", out)
				}
			}
			got := gateprog.Why(line, env, proj, st, since)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", line, got, c.want)
			}
		})
	}
}

// miseRun runs the real mise with its folders under data (none of the
// user's).
func miseRun(t *testing.T, data, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("mise", args...)
	cmd.Dir = dir
	base := filepath.Dir(data)
	cmd.Env = append(os.Environ(), "MISE_DATA_DIR="+data, "MISE_CONFIG_DIR="+filepath.Join(base, "cfg"), "MISE_CACHE_DIR="+filepath.Join(base, "cache"),
		"MISE_STATE_DIR="+filepath.Join(base, "state"), "MISE_YES=1", "MISE_OFFLINE=1", "MISE_TRUSTED_CONFIG_PATHS="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mise %v: %v\n%s", args, err, out)
	}
	return string(out)
}
