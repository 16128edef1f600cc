package gateenv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateenv"
)

// TestCleanGoEnvFile: the Go env file the agent can write with a shell
// redirect (GOFLAGS=-exec=true: every go test "ok" without running) is
// not read by a gate's command; the module settings a person keeps there
// still reach it, as variables, unless the caller set them itself.
func TestCleanGoEnvFile(t *testing.T) {
	cases := []struct {
		name     string
		file     string // the Go env file's content, "" for none
		environ  []string
		want     []string // among the result
		wantNot  []string // prefixes absent from the result
		unreadOK bool     // the file is named as left unread
	}{
		{"no file", "", nil, []string{"GOENV=off", "GOFLAGS=-count=1"}, []string{"GOFLAGS=-exec"}, false},
		{"a redirect in the file", "GOFLAGS=-exec=true\nGOPROXY=off\nGOTOOLCHAIN=go1.99.0\n", nil,
			[]string{"GOENV=off", "GOPROXY=off", "GOFLAGS=-count=1"}, []string{"GOFLAGS=-exec", "GOTOOLCHAIN="}, true},
		{"the caller's own setting wins", "GOPROXY=off\nGOPRIVATE=example.com\n", []string{"GOPROXY=direct"},
			[]string{"GOPROXY=direct", "GOPRIVATE=example.com"}, []string{"GOPROXY=off"}, false},
		{"flags that change no verdict", "GOFLAGS=-buildvcs=false -count=1\nGOTOOLCHAIN=local\n", nil,
			[]string{"GOFLAGS=-buildvcs=false -count=1", "GOTOOLCHAIN=local"}, nil, false},
		{"a person's flags, test results uncached", "GOFLAGS=-buildvcs=false\n", nil,
			[]string{"GOFLAGS=-buildvcs=false -count=1"}, nil, false},
		{"a flag that skips tests", "GOFLAGS=-buildvcs=false -short\n", nil, []string{"GOENV=off", "GOFLAGS=-count=1"}, []string{"GOFLAGS=-buildvcs"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if c.file != "" {
				if err := os.MkdirAll(filepath.Join(home, ".config", "go"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, ".config", "go", "env"), []byte(c.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env, dropped := gateenv.Clean(append([]string{"HOME=" + home}, c.environ...), "", false)
			for _, w := range c.want {
				if !slices.Contains(env, w) {
					t.Errorf("env %q lacks %q", env, w)
				}
			}
			for _, w := range c.wantNot {
				if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, w) }) {
					t.Errorf("env %q has %q", env, w)
				}
			}
			named := slices.ContainsFunc(dropped, func(d string) bool { return strings.HasSuffix(d, "from the Go env file") })
			if named != c.unreadOK {
				t.Errorf("dropped %q: names the Go env file %v, want %v", dropped, named, c.unreadOK)
			}
		})
	}
}

// TestGoEnvFileRealGo runs the real go command as a gate would: with the
// agent's env file in place, a failing test must fail; an honest env file
// (module settings only) leaves a passing test passing.
func TestGoEnvFileRealGo(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("go not on PATH")
		}
		t.Skip("go not on PATH: the real go command is needed")
	}
	for _, c := range []struct {
		name, file, test string
		pass             bool
	}{
		{"agent's GOFLAGS in the env file", "GOFLAGS=-exec=true\n", "t.Fatal(\"broken\")", false},
		{"honest module settings", "GOPROXY=off\nGOFLAGS=-count=1\n", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, cfg := t.TempDir(), t.TempDir()
			write := func(p, s string) {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.21\n")
			write(filepath.Join(dir, "m_test.go"), "package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) { "+c.test+" }\n")
			write(filepath.Join(cfg, "go", "env"), c.file)
			environ := append(os.Environ(), "XDG_CONFIG_HOME="+cfg)
			environ = slices.DeleteFunc(environ, func(kv string) bool { return strings.HasPrefix(kv, "GOFLAGS=") || strings.HasPrefix(kv, "GOENV=") })
			env, _ := gateenv.Clean(environ, dir, false)
			cmd := exec.Command(goBin, "test", "./...")
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if (err == nil) != c.pass {
				t.Fatalf("go test passed=%v, want %v:\n%s", err == nil, c.pass, out)
			}
		})
	}
}

// TestCleanStartPath: once a session has started, a PATH entry that was
// not on the PATH it started with is dropped (a folder of fake programs
// put first later); git's own exec path, which git puts first when it
// runs a hook, stays.
func TestCleanStartPath(t *testing.T) {
	start := "/usr/local/bin:/usr/bin:/bin"
	cases := []struct {
		name, path, want string
		dropped          []string
	}{
		{"same PATH", start, start, nil},
		{"an entry removed", "/usr/bin:/bin", "/usr/bin:/bin", nil},
		{"a folder put first", "/opt/fake:" + start, start, []string{"PATH entries added after the session started (/opt/fake)"}},
		{"git's exec path in a hook", "/usr/lib/git-core:" + start, "/usr/lib/git-core:" + start, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, dropped := gateenv.CleanFor([]string{"PATH=" + c.path}, gateenv.Options{StartPath: start, StartPathBound: true})
			if env[0] != "PATH="+c.want {
				t.Errorf("PATH = %q, want %q", env[0], c.want)
			}
			if !slices.Equal(dropped, c.dropped) {
				t.Errorf("dropped %q, want %q", dropped, c.dropped)
			}
		})
	}
}

// TestProgramsElsewhere: a line that runs a program by a path outside the
// work tree and the gate's PATH is not the run a gate would make.
func TestProgramsElsewhere(t *testing.T) {
	env := []string{"PATH=/usr/local/go/bin:/usr/bin"}
	cases := []struct{ line, want string }{
		{"go test ./...", ""},
		{"./test.sh", ""},
		{"/usr/bin/python3 -m pytest", ""},
		{"/tmp/fake/go test ./...", "/tmp/fake/go"},
		{"cd . && ../fake/go test ./...", "../fake/go"},
		{"timeout 60 /opt/x/pytest", "/opt/x/pytest"},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			if got := strings.Join(gateenv.ProgramsElsewhere(c.line, env, "/work/repo"), ","); got != c.want {
				t.Errorf("ProgramsElsewhere(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}

// TestNpmrcRealNpm runs the real npm as a gate would: node-options in the
// agent-written ~/.npmrc (a --require that turns every exit into 0) must
// not reach `npm test`; a project whose test passes still passes.
func TestNpmrcRealNpm(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("npm not on PATH")
		}
		t.Skip("npm not on PATH: the real npm is needed")
	}
	for _, c := range []struct {
		name string
		exit int
		pass bool
	}{
		{"failing test, agent's node-options", 3, false},
		{"honest passing test", 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, home := t.TempDir(), t.TempDir()
			pkg := `{"name":"x","version":"1.0.0","scripts":{"test":"node -e \"process.exit(` + string(rune('0'+c.exit)) + `)\""}}`
			if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
				t.Fatal(err)
			}
			hook := filepath.Join(home, "x.js")
			if err := os.WriteFile(hook, []byte("process.on('exit', () => { process.exitCode = 0 })\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".npmrc"), []byte("node-options=--require "+hook+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			environ := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "HOME=") })
			env, _ := gateenv.Clean(append(environ, "HOME="+home), dir, false)
			cmd := exec.Command(npm, "test")
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if (err == nil) != c.pass {
				t.Fatalf("npm test passed=%v, want %v:\n%s", err == nil, c.pass, out)
			}
		})
	}
}

// TestCleanStartPathChangeTime: with the session's start time, a folder
// not on the start PATH is dropped only when it changed after the start
// (made or written by the agent); one unchanged since (a shell profile's
// folder, on the agent's shell PATH only) stays.
func TestCleanStartPathChangeTime(t *testing.T) {
	const dir = "/usr/bin"
	cases := []struct {
		name  string
		since time.Time
		kept  bool
	}{
		{"changed after the start", time.Unix(1, 0), false},
		{"unchanged since the start", time.Now().Add(time.Hour), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, _ := gateenv.CleanFor([]string{"PATH=" + dir}, gateenv.Options{StartPath: "/bin", StartPathBound: true, Since: c.since})
			if kept := env[0] == "PATH="+dir; kept != c.kept {
				t.Fatalf("PATH = %q: %s kept %v, want %v", env[0], dir, kept, c.kept)
			}
		})
	}
}
