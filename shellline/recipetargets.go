package shellline

import (
	"path"
	"strings"
)

// Task runners that read their recipes from a project file, like make
// (issue 25 items 5 and 10): `just test`, `task test`, `mise run test`,
// `pixi run test`. What the recipe runs is in the work tree, so an agent
// that rewrites it to `true` passes "the tests" unless the recipe is read
// and compared like a Makefile target (testrun.ScriptBody).

// recipeValueFlags are each runner's options that take a value (the next
// word): it is not the recipe's name.
var recipeValueFlags = map[string]map[string]bool{
	"just": flagSet("f justfile d working-directory dotenv-filename dotenv-path E shell shell-arg color command-color chooser list-heading list-prefix"),
	"task": flagSet("t taskfile d dir o output output-group-begin output-group-end C concurrency I interval"),
	"mise": flagSet("C cd E env j jobs t tool shell output"),
	"pixi": flagSet("manifest-path m e environment"),
}

// recipeTarget reads the recipe a runner line names: the file (-f, -t,
// --manifest-path), the folder it runs in (-d, -C) and the name. mise and
// pixi name a task after `run` (`mise r` too); just and task name it first.
func recipeTarget(prog string, args []string, dir string) ScriptTarget {
	t := ScriptTarget{Tool: prog, Dir: dir}
	vf := recipeValueFlags[prog]
	needRun := prog == "mise" || prog == "pixi"
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") {
			name, val, hasVal := flagName(a)
			if !vf[name] {
				continue
			}
			if !hasVal && i+1 < len(args) {
				i++
				val = args[i]
			}
			switch name {
			case "f", "justfile", "t", "taskfile", "manifest-path", "m":
				if prog != "mise" { // mise's -t is a tool
					t.File = val
				}
			case "d", "working-directory", "dir", "C", "cd":
				if prog != "task" || name != "C" { // task's -C is concurrency
					t.Dir = joinDir(dir, val)
				}
			}
			continue
		}
		if needRun {
			if a != "run" && a != "r" {
				return ScriptTarget{} // another subcommand (mise install)
			}
			needRun = false
			continue
		}
		if strings.Contains(a, "=") {
			continue // a variable (task test FOO=1, just X=1 test)
		}
		t.Name = a
		break
	}
	if t.File != "" && (prog == "just" || prog == "task") && t.Dir == dir {
		// a file named elsewhere: the runner works in its folder
		t.Dir = path.Join(dir, path.Dir(t.File))
		t.File = path.Base(t.File)
	}
	return t
}
