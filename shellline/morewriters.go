package shellline

import "strings"

// Round 20 (t6): writers Writes did not read, found by trying them as a
// lazy agent would against the agent hook: each names the file it writes
// in its own words, so the file is read as literally as `cp`'s.
//
//   - `sort -o F`, `curl -o F` / `--output F`, `wget -O F` /
//     `--output-document=F`, `sponge F`, `patch F` (the file patched) and
//     `patch -o F`: an output file option or operand;
//   - `ed F`, `ex F`, `vim -es ... F` (scripted editors: the file operands);
//   - `gawk -i inplace ... F`, and awk's own `print > "F"`;
//   - `sqlite3 DB ".output F"` / `.once F` (dot-commands that write F);
//   - `git mv [-f] SRC DST` (DST, or DIR/base(SRC)).
func moreWrittenOperands(args []string) []string {
	if len(args) == 0 {
		return nil
	}
	name := CommandName(args[0])
	// The value of an output option: -o F, -oF, --output F, --output=F.
	optValue := func(short string, long ...string) []string {
		var out []string
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch {
			case a == short && i+1 < len(args):
				out = append(out, args[i+1])
				i++
			case short != "" && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], short[1]) >= 0:
				// Grouped flags: -sLo F, -qO-, -oF.
				k := strings.IndexByte(a[1:], short[1]) + 1
				if v := a[k+1:]; v != "" {
					out = append(out, v)
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
					i++
				}
			default:
				for _, l := range long {
					if a == l && i+1 < len(args) {
						out = append(out, args[i+1])
						i++
					} else if v, ok := strings.CutPrefix(a, l+"="); ok {
						out = append(out, v)
					}
				}
			}
		}
		return out
	}
	switch name {
	case "sort":
		return optValue("-o", "--output")
	case "curl":
		return optValue("-o", "--output")
	case "wget":
		return optValue("-O", "--output-document")
	case "sponge":
		return operands(args[1:], nil)
	case "patch":
		out := optValue("-o", "--output")
		if ops := operands(args[1:], map[string]bool{"-i": true, "--input": true, "-p": true, "-o": true, "--output": true, "-d": true, "--directory": true, "-B": true, "-z": true, "-D": true, "-F": true, "-r": true, "-V": true, "-Y": true, "--suffix": true}); len(ops) > 0 {
			out = append(out, ops[0]) // patch FILE [PATCHFILE]: FILE is patched
		}
		return out
	case "ed", "red", "ex":
		return operands(args[1:], nil)
	case "vi", "vim", "nvim":
		scripted := false
		for _, a := range args[1:] {
			if a == "-e" || a == "-es" || a == "-E" || a == "-s" || a == "-c" || a == "--headless" || strings.HasPrefix(a, "+") {
				scripted = true
			}
		}
		if scripted {
			return operands(args[1:], map[string]bool{"-c": true, "--cmd": true, "-S": true, "-u": true, "-i": true, "-T": true})
		}
	case "awk", "gawk", "mawk", "nawk":
		valued := map[string]bool{"-f": true, "-v": true, "-F": true, "-i": true, "--include": true, "-l": true, "--load": true}
		inplace := false
		for i := 1; i+1 < len(args); i++ {
			if (args[i] == "-i" || args[i] == "--include") && args[i+1] == "inplace" {
				inplace = true
			}
		}
		if strings.HasPrefix(strings.Join(args, " "), "--include=inplace") {
			inplace = true
		}
		ops := operands(args[1:], valued)
		var out []string
		if len(ops) > 0 && !containsStr(args, "-f") {
			out = append(out, awkOutputs(ops[0])...)
			if inplace {
				out = append(out, ops[1:]...)
			}
		}
		return out
	case "sqlite3":
		var out []string
		for _, a := range args[1:] {
			for _, l := range strings.Split(a, "\n") {
				f := strings.Fields(strings.TrimSpace(l))
				if len(f) >= 2 && (f[0] == ".output" || f[0] == ".once" || f[0] == ".save" || f[0] == ".backup") {
					out = append(out, strings.Trim(f[len(f)-1], `'"`))
				}
			}
		}
		return out
	case "git":
		i := gitSubIndex(args)
		if i < len(args) && args[i] == "mv" {
			ops := operands(args[i+1:], nil)
			if len(ops) >= 2 {
				dst := ops[len(ops)-1]
				out := []string{dst}
				for _, s := range ops[:len(ops)-1] {
					out = append(out, strings.TrimSuffix(dst, "/")+"/"+baseName(s))
				}
				// Round 24 review (c8): the sources leave the work tree
				// too, as with mv (`git mv SESSION-PROTOCOL.md x.md`
				// was allowed).
				return append(out, ops[:len(ops)-1]...)
			}
		}
		if i < len(args) && args[i] == "rm" {
			return gitRemoved(args[i+1:])
		}
		if i < len(args) && args[i] == "update-index" {
			return indexRemoved(args[i+1:])
		}
	}
	return nil
}

// operands lists the words that are no option, skipping valued options'
// values.
func operands(rest []string, valued map[string]bool) []string {
	var out []string
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case a == "--":
			for _, b := range rest[k+1:] {
				if b != "" {
					out = append(out, b)
				}
			}
			return out
		case valued[a]:
			k++
		case a == "" || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
		default:
			out = append(out, a)
		}
	}
	return out
}

// awkOutputs lists the files an awk program prints into: `> "F"`,
// `>> "F"` with a literal name.
func awkOutputs(prog string) []string {
	var out []string
	for i := 0; i < len(prog); i++ {
		if prog[i] != '>' {
			continue
		}
		j := i + 1
		if j < len(prog) && prog[j] == '>' {
			j++
		}
		for j < len(prog) && prog[j] == ' ' {
			j++
		}
		if j < len(prog) && prog[j] == '"' {
			if end := strings.IndexByte(prog[j+1:], '"'); end > 0 {
				out = append(out, prog[j+1:j+1+end])
				i = j + 1 + end
			}
		}
	}
	return out
}

func baseName(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// gitRemoved lists what `git rm` removes: its paths from the work tree
// and the index, so the next commit drops them (round 24 review: `git
// rm SESSION-PROTOCOL.md` was allowed where `rm` is denied). With
// --cached the work tree keeps them and only a named file counts: `git
// rm -r --cached . && git add .` re-reads the index after a .gitignore
// change and leaves every file as it was.
func gitRemoved(rest []string) []string {
	cached, fromFile := false, false
	for _, a := range rest {
		switch {
		case a == "--":
		case a == "--cached":
			cached = true
		case strings.HasPrefix(a, "--pathspec-from-file"):
			fromFile = true // the paths are in a file: any of them
		}
	}
	ops := operands(rest, nil)
	if !cached {
		if fromFile {
			ops = append(ops, ".")
		}
		return ops
	}
	var out []string
	for _, p := range ops {
		if p != "." && !strings.ContainsAny(p, "*?[") {
			out = append(out, p)
		}
	}
	return out
}

// indexRemoved lists the paths `git update-index --remove/--force-remove`
// takes out of the index (the next commit deletes them).
func indexRemoved(rest []string) []string {
	remove := false
	for _, a := range rest {
		remove = remove || a == "--remove" || a == "--force-remove"
	}
	if !remove {
		return nil
	}
	return operands(rest, nil)
}
