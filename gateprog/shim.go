package gateprog

import (
	"path/filepath"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// pyenvShim is the script `pyenv rehash` writes for every program of
// every installed Python (it rewrites them all after each `pip install`
// of a console script, so an honest install during a session changes
// them): it runs `pyenv exec NAME`, which runs
// $PYENV_ROOT/versions/V/bin/NAME. rbenv, nodenv and goenv write the
// same template under their own names.
var pyenvShim = lazyregexp.New(`\A#!/usr/bin/env bash
set -e
\[ -n "\$(?:PY|RB|NOD|GO)ENV_DEBUG" \] && set -x

program="\$\{0##\*/\}"

export (?:PY|RB|NOD|GO)ENV_ROOT="([^"\n]+)"
(?:SHIM_PATH=\$\{0%/\*\}
if \[\[ \$SHIM_PATH != "[^"\n]+" \]\]; then
  export _(?:PY|RB|NOD|GO)ENV_SHIM_PATH="\$SHIM_PATH"
fi
)?exec "[^"\n]+/libexec/(?:py|rb|nod|go)env" exec "\$program" "\$@"
\z`)

// asdfShim is the script `asdf reshim` writes: `asdf exec NAME` runs
// $ASDF_DATA_DIR/installs/PLUGIN/VERSION/bin/NAME.
var asdfShim = lazyregexp.New(`\A#!/usr/bin/env bash\n(?:# asdf-plugin: [^\n]*\n)+exec (?:"[^"\n]*asdf"|\S*asdf) exec "[^"\n]+" "\$@"(?: # asdf_allow: [^\n]*)?\n?\z`)

// pyenvTargets are the programs a pyenv-style shim named name may run:
// each installed version's bin/NAME ("" root: not a shim).
func pyenvTargets(b []byte, name string) (root string, targets []string) {
	m := pyenvShim.FindSubmatch(b)
	if m == nil {
		return "", nil
	}
	root = string(m[1])
	targets, _ = filepath.Glob(filepath.Join(root, "versions", "*", "bin", filepath.Base(name)))
	return root, targets
}

// managerTargets are the programs a version manager's shim at p (real:
// what it resolves to) may run, whichever version a .tool-versions,
// .python-version, .nvmrc or mise.toml selects now: a version folder
// planted during the session and selected by a version file rewritten
// then (`installs/python/3.11.99/bin/pytest` printing "1 passed") is one
// of them. ok is false for no shim. Every installed version's program of
// that name is judged, so no version file needs reading and the rule
// follows no manager's precedence.
func managerTargets(p, real, name string) (targets []string, ok bool) {
	base := filepath.Base(name)
	data := filepath.Dir(filepath.Dir(p)) // <data>/shims/NAME
	switch {
	case filepath.Base(real) == "mise" && base != "mise" && filepath.Base(filepath.Dir(p)) == "shims":
		// mise's shims are links to mise itself.
	case filepath.Base(real) == "volta-shim" && base != "volta-shim":
		for _, g := range []string{"tools/image/*/*/bin/" + base, "tools/image/packages/*/bin/" + base} {
			m, _ := filepath.Glob(filepath.Join(data, g))
			targets = append(targets, m...)
		}
		return targets, true
	default:
		b, err := boundedread.File(real, 4096)
		if err != nil || !asdfShim.Match(b) {
			return nil, false
		}
		data = filepath.Dir(filepath.Dir(real))
	}
	for _, g := range []string{"installs/*/*/bin/" + base, "installs/*/*/*/bin/" + base} {
		m, _ := filepath.Glob(filepath.Join(data, g))
		targets = append(targets, m...)
	}
	return targets, true
}

// judgeShim judges what a shim runs (the shim itself is the template):
// a versions/V/bin/pytest rewritten is the program rewritten, and so is
// the package its entry point loads.
func judgeShim(targets []string, root string, env []string, since time.Time) string {
	for _, t := range targets {
		if why := judge(filepath.Base(t), t, root, env, since); why != "" {
			return why
		}
		if why := entryWhy(t, env, since); why != "" {
			return why
		}
	}
	return ""
}
