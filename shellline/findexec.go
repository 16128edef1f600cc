package shellline

import (
	"path"
	"strings"
)

// Round 21 (c4): what the commands find's -exec runs write. Writes read
// a find as a writer only when its -exec deletes the file it found (rm,
// mv...), so `find . -name SESSION-PROTOCOL.md -exec sed -i ... {} \;`
// and `find tpl -name X -exec cp {} X \;` passed the agent hook. Each
// -exec command is now read as a line of its own, {} put in as the files
// find can reach by a literal -name (START/NAME), and WriteTargets reads
// `-exec cp {} DIR \;` with a -name pattern as DIR/PATTERN.

// findSegments splits find's arguments (after "find") into its start
// points, literal -name values, -name patterns, and the commands its
// -exec/-execdir/-ok/-okdir run ({} left in).
func findSegments(args []string) (starts, names, patterns []string, cmds [][]string) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == `\(` {
			break
		}
		starts = append(starts, a)
	}
	expr := args[i:]
	for k := 0; k < len(expr); k++ {
		switch expr[k] {
		case "-name", "-iname":
			if k+1 < len(expr) {
				k++
				v := expr[k]
				if v != "" && !strings.ContainsAny(v, "*?[/") && !strings.HasPrefix(v, globMark) && !strings.HasPrefix(v, "\x01") {
					names = append(names, v)
				}
				patterns = append(patterns, v)
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			var cmd []string
			for k++; k < len(expr) && expr[k] != ";" && expr[k] != "+"; k++ {
				cmd = append(cmd, expr[k])
			}
			if len(cmd) > 0 {
				cmds = append(cmds, cmd)
			}
		}
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	return starts, names, patterns, cmds
}

// foundMark stands for a file find found that no literal -name names;
// an operand holding it is not listed by findExecWrites.
const foundMark = "\x02found"

// findExecWrites lists the literal files the commands of a find's -exec
// write: `-exec sed -i ... {} \;` the files a literal -name reaches,
// `-exec cp {} DEST \;` DEST (or DEST/NAME).
func findExecWrites(args []string) []string {
	starts, names, _, cmds := findSegments(args)
	var found []string
	for _, s := range starts {
		if s == "" || strings.HasPrefix(s, globMark) {
			continue
		}
		for _, n := range names {
			found = append(found, path.Join(s, n))
		}
	}
	if len(found) == 0 {
		found = []string{foundMark}
	}
	var out []string
	for _, cmd := range cmds {
		for _, f := range found {
			w := make([]string, len(cmd))
			for i, a := range cmd {
				w[i] = strings.ReplaceAll(a, "{}", f)
			}
			ops := append(writtenOperands(w), moreWrittenOperands(w)...)
			if script, params, ok := shellScriptArgs(w); ok && len(params) == 0 {
				// -exec sh -c 'echo x > p.md' \; (round 26 c11: unjudged before)
				if inner, ok := Writes(script); ok {
					ops = append(ops, inner...)
				}
			} else if ok {
				// -exec sh -c 'cp "$1" .' _ {} \;
				if sc, ok := withParams(script, params); ok {
					if inner, ok := Writes(sc); ok {
						ops = append(ops, inner...)
					}
				}
			}
			for _, op := range ops {
				if !strings.Contains(op, foundMark) && !strings.Contains(op, "{}") {
					out = append(out, op)
				}
			}
		}
	}
	return out
}

// copiers put their sources into a folder under the sources' names.
var copiers = map[string]bool{"cp": true, "mv": true, "ln": true, "install": true, "rsync": true}

// findExecInto is what `find ... -name PATTERN -exec cp {} DIR \;`
// writes: DIR/PATTERN for each -name pattern (DIR a literal folder).
func findExecInto(args []string) [][]piece {
	_, _, patterns, cmds := findSegments(args)
	var out [][]piece
	for _, cmd := range cmds {
		if !copiers[CommandName(cmd[0])] || len(cmd) < 3 || !containsStr(cmd, "{}") {
			continue
		}
		ops := operands(cmd[1:], map[string]bool{"-m": true, "--mode": true, "-o": true, "-g": true, "-S": true, "--suffix": true})
		if len(ops) < 2 {
			continue
		}
		dir := ops[len(ops)-1]
		for i, a := range cmd {
			if (a == "-t" || a == "--target-directory") && i+1 < len(cmd) {
				dir = cmd[i+1] // cp -t DIR {} +
			} else if v, ok := strings.CutPrefix(a, "--target-directory="); ok {
				dir = v
			}
		}
		if dir == "" || dir == "{}" || strings.HasPrefix(dir, "\x01") || strings.Contains(dir, "{}") {
			continue
		}
		for _, p := range patterns {
			if p == "" || strings.HasPrefix(p, "\x01") {
				continue
			}
			ps := globPieces(p)
			if c := path.Clean(dir); c != "." {
				ps = append([]piece{{'l', c + "/"}}, ps...)
			}
			out = append(out, ps)
		}
	}
	return out
}

// splitOutputs are the files `split [OPTS] FILE PREFIX` and `csplit -f
// PREFIX FILE PATTERN...` write: PREFIX and a suffix they make up (split:
// letters or digits, then --additional-suffix; csplit: its -b format,
// which `%.0d.md` makes any text), read as PREFIX<?>SUFFIX. `split -n 4
// -a 1 evil SESSION-PROTOCOL.m` writes SESSION-PROTOCOL.md as its fourth
// piece. Literal words only (args as WriteTargets builds them).
func splitOutputs(args []string) [][]piece {
	if len(args) == 0 {
		return nil
	}
	name := CommandName(args[0])
	if name != "split" && name != "csplit" {
		return nil
	}
	prefix, suffix := "x", ""
	if name == "csplit" {
		prefix = "xx"
	}
	valued := map[string]bool{"-a": true, "-b": true, "-C": true, "-l": true, "-n": true, "-t": true, "-f": true, "--prefix": true, "--suffix-format": true, "--digits": true, "--bytes": true, "--lines": true, "--line-bytes": true, "--number": true, "--separator": true, "--suffix-length": true, "--additional-suffix": true}
	var ops []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		v, hasV := "", false
		if i+1 < len(args) && valued[a] {
			v, hasV = args[i+1], true
			i++
		} else if k := strings.IndexByte(a, '='); strings.HasPrefix(a, "--") && k > 0 {
			v, hasV, a = a[k+1:], true, a[:k]
		}
		switch {
		case name == "csplit" && (a == "-f" || a == "--prefix") && hasV:
			prefix = v
		case name == "csplit" && strings.HasPrefix(a, "-f") && len(a) > 2 && !hasV:
			prefix = a[2:]
		case name == "csplit" && (a == "-b" || a == "--suffix-format"):
			suffix = "" // a format: any text
		case name == "split" && a == "--additional-suffix" && hasV:
			suffix = v
		case hasV || strings.HasPrefix(a, "-") && a != "-":
		default:
			ops = append(ops, a)
		}
	}
	if name == "split" && len(ops) >= 2 {
		prefix = ops[1]
	}
	if prefix == "" || strings.HasPrefix(prefix, "\x01") || strings.HasPrefix(suffix, "\x01") || strings.HasPrefix(prefix, "/dev/") {
		return nil
	}
	ps := []piece{{'l', prefix}, {'u', ""}}
	if suffix != "" {
		ps = append(ps, piece{'l', suffix})
	}
	return [][]piece{ps}
}
