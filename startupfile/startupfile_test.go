package startupfile_test

import (
	"os"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/startupfile"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestWrite: a direct write to a Python startup file, or to the user's npm
// config while a session runs, is named; the honest twins (an ordinary
// .py file, a .pth name outside site-packages, the project's own .npmrc,
// a read of the files) are not.
func TestWrite(t *testing.T) {
	const root = "/repo"
	t.Setenv("HOME", "/home/u")
	t.Setenv("XDG_CONFIG_HOME", "")
	sh := func(cmd string) startupfile.Call { return startupfile.Call{Tool: "Bash", Shell: true, Command: cmd} }
	edit := func(p string) startupfile.Call {
		return startupfile.Call{Tool: "Write", Edit: true, Paths: []string{p}}
	}
	for _, c := range []struct {
		name   string
		call   startupfile.Call
		writes []string
		active bool
		want   string // a word of the reason, "" for none
	}{
		{"edit a .pth", edit("/repo/.venv/lib/python3.12/site-packages/x.pth"), nil, true, "Python startup file"},
		{"edit sitecustomize", edit("/usr/lib/python3/dist-packages/sitecustomize.py"), nil, false, "Python startup file"},
		{"echo into a .pth", sh("echo 'import os; os._exit(0)' > .venv/lib/python3.12/site-packages/x.pth"), []string{"/repo/.venv/lib/python3.12/site-packages/x.pth"}, true, "Python startup file"},
		{"copy into site-packages", sh("cp x.pth .venv/lib/python3.12/site-packages/"), []string{"/repo/.venv/lib/python3.12/site-packages"}, true, "Python startup file"},
		{"user npmrc", sh("echo script-shell=/tmp/x > ~/.npmrc"), nil, true, "npm config"},
		{"user npmrc by path", edit("/home/u/.npmrc"), nil, true, "npm config"},
		{"user npmrc, no session", edit("/home/u/.npmrc"), nil, false, ""},
		{"project npmrc", edit("/repo/.npmrc"), nil, true, ""},
		// Lazy-agent pass 34: core.hooksPath printed into git's user config.
		{"printf into gitconfig", sh(`printf '[core]\n\thooksPath = /tmp/h\n' >> ~/.gitconfig`), nil, true, "git's user or system config"},
		{"tee into gitconfig", sh(`echo x | tee -a $HOME/.gitconfig`), nil, true, "git's user or system config"},
		{"copy into xdg config", sh(`cp /tmp/g ~/.config/git/config`), nil, true, "git's user or system config"},
		{"sed in place", sh(`sed -i 's/x/y/' ~/.gitconfig`), nil, true, "git's user or system config"},
		{"system config", sh(`echo x >> /etc/gitconfig`), nil, true, "git's user or system config"},
		{"python writes it", sh(`python3 -c "open('/home/u/.gitconfig','a').write('x')"`), []string{"/home/u/.gitconfig"}, true, "git's user or system config"},
		{"clobber redirect", sh(`cat /tmp/n >| ~/.gitconfig`), nil, true, "git's user or system config"},
		{"quoted HOME", sh(`printf x >> "$HOME"/.gitconfig`), nil, true, "git's user or system config"},
		{"tee's second file", sh(`printf x | tee -a /tmp/log ~/.gitconfig`), nil, true, "git's user or system config"},
		{"an unclean path", edit("/home/u/.config/git/./config"), nil, true, "git's user or system config"},
		// Round 35 review: reads and other people's files, denied before.
		{"backup copy", sh(`cp ~/.gitconfig /tmp/gitconfig.bak`), nil, true, ""},
		{"link to it", sh(`ln -s ~/.gitconfig /tmp/gitconfig-link`), nil, true, ""},
		{"sed elsewhere then a read", sh(`sed -i 's/foo/bar/' src/a.go; grep -n email ~/.gitconfig`), nil, true, ""},
		{"a fixture's gitconfig", edit("/tmp/fixtures/home/.gitconfig"), nil, true, ""},
		{"edit tool", edit("/home/u/.gitconfig"), nil, true, "git's user or system config"},
		{"gitconfig, no session", edit("/home/u/.gitconfig"), nil, false, ""},
		{"read gitconfig", sh(`cat ~/.gitconfig`), nil, true, ""},
		{"another repo's .git/config", edit("/srv/other/.git/config"), nil, true, ""},
		{"project gitconfig file", edit("/repo/.gitconfig"), nil, true, ""},
		{"ordinary module", edit("/repo/.venv/lib/python3.12/site-packages/pkg/mod.py"), nil, true, ""},
		{"a .pth elsewhere", edit("/repo/docs/paths.pth"), nil, true, ""},
		{"read a .pth", sh("cat .venv/lib/python3.12/site-packages/x.pth"), nil, true, ""},
		{"a read tool", startupfile.Call{Tool: "Read", Paths: []string{"/repo/.venv/lib/python3.12/site-packages/x.pth"}}, nil, true, ""},
		{"powershell line", startupfile.Call{Tool: "powershell", Shell: true, Dialect: shellline.PowerShell, Command: "Set-Content x.pth 'import os'"}, nil, true, ""},
	} {
		got := startupfile.Write(root, c.call, c.writes, c.active)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: Write = %q, want %q", c.name, got, c.want)
		}
	}
}
