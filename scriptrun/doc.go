// Package scriptrun reads the script files a command line runs, so the
// agent hook can judge what `sh tidy.sh`, `python3 forge.py`, `node x.js`,
// `./x.sh`, `source f`, `make`, `cat f | sh` or `bash -c "$(cat
// f)"` would do, not only the line that names them; also what a line runs
// without naming it as a script: the default makefile, the modules
// `python3 -c` imports, pytest's conftest.py files, `awk -f`/`sed -f`
// programs and `go run` packages (more.go) (issue 25: a script
// wrote the session database, re-sealed its gate events and rewrote the
// hooks, past a hook that read only the line).
//
// Find lists the runs of a line; Read reads one file, bounded, only inside
// the repository or a temp folder; a shell script's text is then judged by
// the caller with the same shell-line rules as a typed line (Statements
// gives its statements with their line numbers), and any other language is
// scanned by Scan for references to the things sessiongate protects, also
// when the reference is built from pieces, escaped, reversed, rot13'd or
// base64/hex-encoded.
//
// It is a tripwire, not a sandbox: the agent runs as the same user, and a
// script that downloads or computes its targets at run time is not seen
// here (docs/security.md, "Script files").
package scriptrun
