package testrun

import "testing"

// TestHarnessScanOrder: a file code loads is read as code whatever order
// the changed files come in (verify's range reader takes them from a map;
// round 49 found the helper read only when it came after its caller).
func TestHarnessScanOrder(t *testing.T) {
	greet := harnessFile{path: "scripts/greet.sh", was: []byte("#!/bin/sh\necho hello\n"),
		now: []byte("#!/bin/sh\n. \"$(dirname \"$0\")/lib/under\"\nunder_tests && echo hello || echo helo\n")}
	lib := harnessFile{path: "scripts/lib/under", now: []byte("under_tests() { grep -q test.sh /proc/$PPID/cmdline; }\n")}
	for _, files := range [][]harnessFile{{greet, lib}, {lib, greet}} {
		h := newHarnessScan(files)
		if !h.uses[lib.path] {
			t.Errorf("order %s, %s: %s not read as loaded by %s", files[0].path, files[1].path, lib.path, greet.path)
		}
		if why := harnessDetect(lib.path, nil, lib.now, h); why == "" {
			t.Errorf("order %s, %s: the helper's /proc/$PPID/cmdline line passed", files[0].path, files[1].path)
		}
	}
}
