package gateprog

import (
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"path/filepath"
	"time"
)

// pyenvShim is the script `pyenv rehash` writes for every program of
// every installed Python (it rewrites them all after each `pip install`
// of a console script, so an honest install during a session changes
// them): it runs `pyenv exec NAME`, which runs
// $PYENV_ROOT/versions/V/bin/NAME.
var pyenvShim = lazyregexp.New(`\A#!/usr/bin/env bash
set -e
\[ -n "\$PYENV_DEBUG" \] && set -x

program="\$\{0##\*/\}"

export PYENV_ROOT="([^"\n]+)"
(?:SHIM_PATH=\$\{0%/\*\}
if \[\[ \$SHIM_PATH != "[^"\n]+" \]\]; then
  export _PYENV_SHIM_PATH="\$SHIM_PATH"
fi
)?exec "[^"\n]+/libexec/pyenv" exec "\$program" "\$@"
\z`)

// pyenvTargets are the programs a pyenv shim named name may run: each
// installed version's bin/NAME ("" root: not a shim).
func pyenvTargets(b []byte, name string) (root string, targets []string) {
	m := pyenvShim.FindSubmatch(b)
	if m == nil {
		return "", nil
	}
	root = string(m[1])
	targets, _ = filepath.Glob(filepath.Join(root, "versions", "*", "bin", filepath.Base(name)))
	return root, targets
}

// judgeShim judges what a pyenv shim runs (the shim itself is the
// template): a versions/V/bin/pytest rewritten is the program rewritten.
func judgeShim(targets []string, root string, since time.Time) string {
	for _, t := range targets {
		if why := judge(filepath.Base(t), t, root, since); why != "" {
			return why
		}
	}
	return ""
}
