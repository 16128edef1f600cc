package gateprog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// npmScriptPrograms are the work tree's node_modules/.bin programs a line
// runs through npm, npx, yarn or pnpm: `npm test` runs the test script,
// whose `jest` npm finds in node_modules/.bin first. That folder is
// untracked, so a `jest` linked to /bin/true there is no change git shows.
func npmScriptPrograms(line, root string) []string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok || root == "" {
		return nil
	}
	var scripts map[string]string
	readScripts := func() {
		if scripts != nil {
			return
		}
		scripts = map[string]string{}
		b, err := boundedread.File(filepath.Join(root, "package.json"), 1<<20)
		if err != nil {
			return
		}
		var pj struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(b, &pj) == nil && pj.Scripts != nil {
			scripts = pj.Scripts
		}
	}
	var out []string
	bin := func(name string) {
		if name == "" || strings.Contains(name, "/") {
			return
		}
		if _, err := os.Lstat(filepath.Join(root, "node_modules", ".bin", name)); err == nil {
			out = append(out, "node_modules/.bin/"+name)
		}
	}
	script := func(name string) {
		readScripts()
		for _, s := range []string{"pre" + name, name, "post" + name} {
			for _, w := range programs(scripts[s]) {
				bin(w)
			}
		}
	}
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) < 2 {
			continue
		}
		args := w[1:]
		switch filepath.Base(w[0]) {
		case "npx":
			for _, a := range args {
				if !strings.HasPrefix(a, "-") {
					bin(a)
					break
				}
			}
		case "npm", "pnpm", "yarn":
			switch args[0] {
			case "test", "t", "tst":
				script("test")
			case "run", "run-script":
				if len(args) > 1 {
					script(args[1])
				}
			case "exec":
				if len(args) > 1 {
					bin(args[1])
				}
			default:
				if filepath.Base(w[0]) != "npm" { // `yarn jest`, `pnpm lint`
					if readScripts(); scripts[args[0]] != "" {
						script(args[0])
					} else {
						bin(args[0])
					}
				}
			}
		}
	}
	return out
}
