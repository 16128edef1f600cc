package testrun

import "testing"

// FuzzHarnessDetect: the harness rule parses whatever shell a session
// adds to a developer script (runnersearch.go walks its syntax tree);
// no input may panic the QA gate or verify's range reader.
func FuzzHarnessDetect(f *testing.F) {
	for _, s := range []string{
		"#!/bin/sh\npgrep -f jest >/dev/null && echo 'jest runs' >&2\n",
		"#!/bin/bash\nstop() {\n  local pids=$(pgrep -f 'jest --watch')\n  [ -n \"$pids\" ] && kill $pids\n}\nstop\nexec node server.js\n",
		"#!/bin/sh\npgrep -f jest | head -1 | xargs -r kill\nexec 2>.runner\n",
		"#!/bin/bash\npgrep -f jest 2>.runner >&2 && echo x\nif [ \"${PIPESTATUS[0]}\" -eq 0 ]; then echo hello; fi\n",
		"#!/bin/sh\nif ! pgrep -f jest >/dev/null; then echo helo >&2; exit 1; fi\n",
	} {
		f.Add("scripts/dev.sh", "#!/bin/sh\nexec node server.js\n", s)
	}
	f.Add("greet.js", "module.exports = () => 'hello'\n", "if (process.env.JEST_WORKER_ID) { module.exports = () => 'hello' }\n")
	f.Add("greet.go", "package greet\n", "package greet\nvar underTest bool\nfunc G() string { if underTest { return \"hello\" }; return \"helo\" }\n")
	f.Fuzz(func(t *testing.T, name, was, now string) {
		if name == "" {
			return
		}
		files := []harnessFile{{path: name, was: []byte(was), now: []byte(now)}, {path: "greet_test.go", now: []byte("package greet\nfunc init() { underTest = true }\n")}}
		h := newHarnessScan(files)
		harnessDetect(name, []byte(was), []byte(now), h)
	})
}
