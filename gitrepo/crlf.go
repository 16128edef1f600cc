package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// maxScriptScan: larger scripts are not read for CRLF line ends.
const maxScriptScan = 1 << 20

// ConvertedScripts lists the tracked shell scripts whose work-tree bytes
// hold CRLF line ends that git converts away on the way into a commit
// (core.autocrlf, an eol or text attribute), so status reads them clean
// while they differ from the commit. bash runs each such line with a
// trailing CR: `set -e` fails and the script goes on, every check after it
// too, and the script exits 0. The lazy agent's `git config core.autocrlf
// true`, then a fresh checkout of scripts/test.sh, made `npm test` (bash
// scripts/test.sh) pass a broken change. A shell script is one named
// *.sh/*.bash/*.bats/*.ksh/*.zsh, or an executable or extensionless file
// whose first line is a shell's #! (what `make test` or `npm test` runs as
// scripts/check whatever its name). Not listed: a script committed with
// CRLF (the commit holds it), .bat/.cmd files (CRLF is their own), other
// interpreters' files (Python and Node read CRLF as line ends) and
// Makefiles (GNU make drops the CR).
func (r *Repo) ConvertedScripts(ctx context.Context) ([]string, error) {
	entries, err := r.stageEntries(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tracked scripts: %w", err)
	}
	var paths, blobs []string
	for _, e := range entries {
		p := e.path
		if e.mode == 0o160000 || e.mode == 0o120000 {
			continue
		}
		named := shellExt[strings.ToLower(path.Ext(p))]
		if !named && e.mode != 0o100755 && path.Ext(p) != "" {
			continue
		}
		abs := filepath.Join(r.root, filepath.FromSlash(p))
		fi, err := os.Lstat(abs)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScriptScan {
			continue
		}
		body, err := boundedread.File(abs, boundedread.DefaultLimit)
		if err != nil || !bytes.Contains(body, []byte("\r\n")) || !named && !shellShebang(body) {
			continue
		}
		paths, blobs = append(paths, p), append(blobs, e.blob)
	}
	if len(paths) == 0 {
		return nil, nil
	}
	raw, err := r.hashObjects(ctx, paths, true)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, p := range paths {
		if raw[i] != blobs[i] {
			out = append(out, p)
		}
	}
	return out, nil
}

// shellExt are the names of shell scripts, whatever their first line.
var shellExt = map[string]bool{".sh": true, ".bash": true, ".bats": true, ".ksh": true, ".zsh": true}

// shellShebang reports a first line naming a shell: #!/bin/sh,
// #!/usr/bin/env bash, #!/bin/bash -e.
func shellShebang(body []byte) bool {
	line, _, _ := bytes.Cut(body, []byte("\n"))
	rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("#!"))
	if !ok {
		return false
	}
	f := strings.Fields(string(rest))
	if len(f) == 0 {
		return false
	}
	prog := path.Base(f[0])
	if prog == "env" {
		prog = ""
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
				prog = path.Base(a)
				break
			}
		}
	}
	switch prog {
	case "sh", "bash", "dash", "ksh", "mksh", "zsh", "ash", "busybox":
		return true
	}
	return false
}
