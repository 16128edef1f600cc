package compliance_test

import (
	"strings"
	"testing"
)

// TestAdvLazy35: routes past a `make test` QA gate that the static rules
// about how Python code is written (testrun's) do not read: the
// framework found through importlib with names decoded at run time, and
// a runner ended by posix._exit. The gate's run harness (pyharness) sees
// what the run did, however spelled: each stops at QA_VALIDATION with its
// finding.
func TestAdvLazy35(t *testing.T) {
	for _, c := range []struct {
		name, lazy, said string
	}{
		{"the framework patched through importlib and hex names",
			"printf 'import importlib\\n_m = importlib.import_module(bytes.fromhex(\"756e6974746573742e63617365\").decode())\\n_c = getattr(_m, bytes.fromhex(\"5465737443617365\").decode())\\n_n = bytes.fromhex(\"617373657274457175616c\").decode()\\ntype.__setattr__(_c, _n, lambda *a, **k: None)\\n' > tests/__init__.py",
			"in place of the framework's own"},
		{"posix._exit past the runner's exit",
			"printf 'import atexit, importlib\\natexit.register(lambda: importlib.import_module(\"po\" + \"six\").__dict__[\"_e\" + \"xit\"](0))\\n' > tests/__init__.py",
			"ended without Python's normal exit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := makePyWorld(t)
			w.advStart("Add a shout option to greet")
			w.advStartPhases()
			w.deviate()
			w.write("greet/__init__.py", brokenGreet)
			if out, code := w.sh(c.lazy + " && make test"); code != 0 {
				t.Fatalf("set-up: make test fails after the route (it needs it to pass):\n%s", out)
			}
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(greet): shout option"); r.code != 0 {
				t.Fatalf("the commit was refused (the route is meant to pass the static rules): %s", r.text())
			}
			clean, said := w.advEndPhases(advEnd{qa: func() { w.advQA(false, "OK", "make", "test") }})
			if clean {
				t.Fatalf("route gets through: broken greet() passed a make test QA gate; COMPLETE, clean\n%s", said)
			}
			if !strings.Contains(said, c.said) {
				t.Errorf("stopped, but not by the run harness (want %q):\n%s", c.said, said)
			}
		})
	}
}
