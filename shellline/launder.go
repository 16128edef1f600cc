package shellline

import (
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// Issue 25, items 6, 8, 9: routes by which an agent with a shell passed
// for a person (a person command run detached, renamed, fed by xargs,
// scheduled) or took its records away (sessiongate's refs deleted, the
// database deleted by a tool the write check did not know, code hidden in
// hex). Each check below is a rule that holds for the words of a line
// alone, so the agent hook can deny before anything runs; what no rule
// sees is left to the records ref and CI's verify (docs/security.md).

// personWords are the words of sessiongate's person commands: an option
// before one of them never takes it as its value (erring on seeing the
// command).
var personWords = map[string]bool{"session": true, "protocol": true, "init": true, "terminate": true, "delete": true, "accept": true, "accept-na": true}

// boolFlags are sessiongate's options that take no value; cobra takes the
// word after any other `--flag` or `-f` (without "=") as its value when it
// looks for the subcommand, and so does personCommand.
var boolFlags = map[string]bool{"--yes": true, "-y": true, "--json": true, "--force": true, "--sign": true, "--commit": true,
	"--erase-violations": true, "--help": true, "-h": true, "--version": true, "--quiet": true, "-q": true, "--verbose": true, "-v": true}

// personCommand reads sessiongate's arguments (after the program): the
// person command they name ("session terminate", "protocol accept",
// "init --commit"...), or open when the words stop, or an expansion
// stands, where the command would be named (`xargs sessiongate session`,
// `sessiongate session "$SUB"`).
func personCommand(args []string) (act string, open bool) {
	var cmd []string // the command words, options and their values dropped
	commit := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--commit":
			commit = true
		case len(cmd) >= 2:
			// the command is named; only --commit matters now
		case a == "":
			return "", true // the (sub)command is an expansion
		case a == "--":
		case strings.HasPrefix(a, "-"):
			if !strings.Contains(a, "=") && !boolFlags[a] && (strings.HasPrefix(a, "--") || len(a) == 2) &&
				i+1 < len(args) && !personWords[args[i+1]] {
				i++ // the option's value
			}
		default:
			cmd = append(cmd, a)
		}
	}
	switch {
	case len(cmd) >= 1 && cmd[0] == "init" && commit:
		return "init --commit", false
	case len(cmd) >= 2 && cmd[0] == "session" && (cmd[1] == "terminate" || cmd[1] == "delete" || cmd[1] == "accept-na"):
		return "session " + cmd[1], false
	case len(cmd) >= 2 && cmd[0] == "protocol" && (cmd[1] == "accept" || cmd[1] == "accept-na"):
		return "protocol " + cmd[1], false
	case len(cmd) == 0, len(cmd) == 1 && (cmd[0] == "session" || cmd[0] == "protocol" || cmd[0] == "init"):
		return "", true
	}
	return "", false
}

// unwrapProg is unwrapCall that also returns the program word as the line
// spells it (a path, for the caller to look at) and whether xargs is among
// the wrappers (then more words come from its input).
func unwrapProg(words []string) (inner []string, prog string, viaXargs bool) {
	inner = unwrapCall(words)
	if len(inner) == 0 {
		return nil, "", false
	}
	k := len(words) - len(inner)
	if k < 0 || CommandName(words[k]) != inner[0] {
		return inner, inner[0], false // env -S split the words
	}
	for _, w := range words[:k] {
		viaXargs = viaXargs || CommandName(w) == "xargs"
	}
	return inner, words[k], viaXargs
}

// PersonCommand describes a command of the line that runs one of
// sessiongate's person commands (session terminate, delete, accept-na,
// protocol accept, init --commit), "" when none does. Wrappers (setsid,
// nohup, env, xargs...) are seen through, and the subcommand words count
// whatever program runs them: `/tmp/x session terminate` runs a copy of
// the binary made earlier on the line. isSessiongate tells whether a
// program word (as spelled) is the sessiongate binary under another name;
// for sessiongate, a command left open for xargs to complete, or an
// expansion where the command is named, counts: it could be terminate.
// nil: only the name sessiongate is.
func PersonCommand(line string, isSessiongate func(prog string) bool) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		inner, prog, viaXargs := unwrapProg(expandedWords(c))
		if len(inner) == 0 {
			continue
		}
		if sub := commandArg(inner); sub != "" {
			// `script -qc CMD`, `su -c CMD`, `git -c alias.x='!CMD' x`:
			// a command line given as one word.
			if how := PersonCommand(sub, isSessiongate); how != "" {
				return how
			}
		}
		act, open := personCommand(inner[1:])
		if act != "" && (inner[0] == "sessiongate" || len(inner) > 1 && (inner[1] == "session" || inner[1] == "protocol")) {
			return "`sessiongate " + act + "`"
		}
		if !open {
			continue
		}
		if !viaXargs && !hasExpansion(inner[1:]) {
			continue // `sessiongate session` alone prints its help
		}
		if inner[0] == "sessiongate" || prog != "" && isSessiongate != nil && isSessiongate(prog) {
			return "`sessiongate` with its command left to xargs or a variable (it could be `session terminate`)"
		}
	}
	return ""
}

// commandArg is the command line a program runs from one of its words:
// `script -qec CMD`, `su -c CMD USER`, `runuser -c`, `flock FILE -c CMD`,
// `watch CMD...`, and a git alias given on the line or set with git config
// (`alias.x=!CMD`). "" when there is none.
func commandArg(w []string) string {
	switch w[0] {
	case "script", "su", "runuser", "flock":
		for i := 1; i+1 < len(w); i++ {
			a := w[i]
			if a == "--command" || a == "--" && w[0] != "flock" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "c") {
				return w[i+1]
			}
		}
	case "watch":
		for i := 1; i < len(w); i++ {
			if !strings.HasPrefix(w[i], "-") {
				return strings.Join(w[i:], " ")
			}
			if w[i] == "-n" || w[i] == "-d" {
				i++
			}
		}
	case "git":
		var lines []string
		for i, a := range w {
			if _, v, ok := strings.Cut(a, "=!"); ok && strings.HasPrefix(strings.ToLower(a), "alias.") {
				lines = append(lines, v)
			} else if strings.HasPrefix(a, "!") && i > 0 && strings.HasPrefix(strings.ToLower(w[i-1]), "alias.") {
				lines = append(lines, a[1:])
			}
		}
		return strings.Join(lines, "\n")
	}
	return ""
}

func hasExpansion(words []string) bool {
	for _, w := range words {
		if w == "" {
			return true
		}
	}
	return false
}

// Programs lists the commands of the line, wrappers seen through, each
// as its words with the program as the line spells it (a path stays a
// path), for a caller that looks at the files they name.
func Programs(line string) [][]string { return programs(line, false) }

// expandedPrograms is Programs after brace expansion (the kill rules:
// `killall session{gate,x}` signals sessiongate).
func expandedPrograms(line string) [][]string { return programs(line, true) }

func programs(line string, expand bool) [][]string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return nil
	}
	var out [][]string
	for _, c := range calls {
		words := c.Words
		if expand {
			words = expandedWords(c)
		}
		if inner, prog, _ := unwrapProg(words); prog != "" {
			out = append(out, append([]string{prog}, inner[1:]...))
		}
	}
	return out
}

// sessiongateCommands are sessiongate's commands: a program named
// otherwise whose first word is one of them may be the binary renamed.
var sessiongateCommands = map[string]bool{"session": true, "protocol": true, "init": true, "agent-hook": true, "run": true,
	"records": true, "install": true, "uninstall": true, "verify": true, "mcp": true, "serve": true, "doctor": true, "hooks": true, "snapshot": true}

// MaybeSessiongate reports whether a command's words (from Programs) could
// be sessiongate under another name: its program is a path, or its first
// argument is one of sessiongate's commands. Only those are worth a look
// at the file.
func MaybeSessiongate(words []string) bool {
	return len(words) > 0 && (strings.ContainsRune(words[0], '/') || len(words) > 1 && sessiongateCommands[words[1]])
}

// Schedules describes a command of the line that hands a command to a
// scheduler (at, batch, crontab, systemd-run), "" when none does. What a
// scheduler runs runs later, outside the agent's process tree and its
// hooks: a person act made that way would pass for a person's. Listing
// (`at -l`, `crontab -l`) schedules nothing.
func Schedules(line string) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := unwrapCall(expandedWords(c))
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "at", "batch":
			// at(1) with no argument has no time and refuses ("Garbled
			// time"): prose and stack frames ("eval at ") hold it bare.
			// batch needs no time.
			if w[0] == "at" && len(w) == 1 {
				continue
			}
			if !anyFlag(w[1:], "-l", "-c", "-d", "-r", "-V") {
				return "`" + w[0] + "` (schedules a command to run outside the agent's hooks)"
			}
		case "crontab":
			if !anyFlag(w[1:], "-l") {
				return "`crontab` (schedules a command to run outside the agent's hooks)"
			}
		case "systemd-run":
			return "`systemd-run` (runs a command as a service, outside the agent's hooks)"
		}
	}
	return ""
}

func anyFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f {
				return true
			}
		}
	}
	return false
}

// Code that runs decoded text: the text it runs is not on the line, so no
// write, person command or hook bypass in it can be judged. Each language
// needs a run call and a decoder in the same code.
var (
	runCall = lazyregexp.New(`\b(?:exec|eval|compile|system|popen|Popen|subprocess|spawn\w*|exec(?:Sync|File\w*)|Function|instance_eval|class_eval|__import__|getattr)\b`)
	decoder = lazyregexp.New(`fromhex|unhexlify|b(?:16|32|64|85)decode|a85decode|decodebytes|decodestring|codecs\.decode|rot_?13|zlib\.decompress|gzip\.decompress|marshal\.loads|bytes\(\s*\[|chr\(|\\x[0-9a-fA-F]{2}|\\[0-7]{3}|\[::-1\]|Buffer\.from\([^)]*['"](?:base64|hex|base64url)['"]|atob\(|fromCharCode|unescape\(|decode_base64|MIME::Base64|pack\s*\(?\s*['"][Hhmu]|unpack1?\(\s*['"][mHhu]|Base64\.\w*decode|\.reverse\b`)
)

// obfuscatedCode reports whether interpreter code runs what it decodes.
func obfuscatedCode(code string) bool {
	return runCall.MatchString(code) && decoder.MatchString(code)
}

// decodes reports whether a command turns encoded text into other text:
// base64 -d, xxd -r, printf or echo -e with escapes, rev, tr, an
// unpacker.
func decodes(w []string) bool {
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "base64", "base32", "basenc":
		return anyFlag(w[1:], "-d", "--decode", "-D")
	case "xxd":
		return anyFlag(w[1:], "-r", "-r -p", "-rp", "-revert")
	case "openssl":
		return anyFlag(w[1:], "-d", "base64", "enc")
	case "rev", "tr", "uudecode", "zcat", "gunzip", "bunzip2", "xzcat", "unxz":
		return true
	case "gzip", "bzip2", "xz":
		return anyFlag(w[1:], "-d", "--decompress")
	case "printf":
		for _, a := range w[1:] {
			if strings.Contains(a, `\x`) || strings.Contains(a, `\0`) || strings.Contains(a, `%b`) || octalEscape.MatchString(a) {
				return true
			}
		}
	case "echo":
		return anyFlag(w[1:], "-e", "-ne", "-en") && anyContains(w[1:], `\`)
	}
	return false
}

var octalEscape = lazyregexp.New(`\\[0-7]{3}`)

func anyContains(ws []string, s string) bool {
	for _, w := range ws {
		if strings.Contains(w, s) {
			return true
		}
	}
	return false
}

// Obfuscated describes a command of the line that runs code it decodes
// first, "" when none does: an interpreter's -c/-e code that execs what
// it decoded (`python3 -c "exec(bytes.fromhex('...'))"`), a shell's -c
// script or eval built by a decoding command substitution (`bash -c
// "$(printf '\x73...')"`), a decoder piped into a shell or an
// interpreter, or a program named in ANSI-C escapes ($'\x73ed'). Code on
// the line in plain text is judged by the other checks; decoding without
// running (`base64 -d file`, `print(b64decode(...))`) is not this.
func Obfuscated(line string) string {
	_, f, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	how := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if how != "" {
			return false
		}
		switch x := n.(type) {
		case *syntax.Stmt:
			if code, ok := stmtInterpreterCode(x); ok && obfuscatedCode(code) {
				how = "interpreter code that runs what it decodes"
				return false
			}
		case *syntax.BinaryCmd:
			if (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && pipesDecoded(x) {
				how = "decoded text piped into a shell or interpreter"
				return false
			}
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				return true
			}
			if ansiEscaped(x.Args[0]) {
				how = "a program named in escapes"
				return false
			}
			var words []string
			for _, w := range x.Args {
				s, _ := Literal(w)
				words = append(words, s)
			}
			inner := unwrapCall(words)
			if len(inner) == 0 {
				return true
			}
			off := len(words) - len(inner)
			runsCode := false
			switch {
			case inner[0] == "eval":
				runsCode = true
			case shells[inner[0]] || inner[0] == "ash":
				runsCode = anyFlagWith(inner[1:], 'c')
			default:
				_, isInterp := interpreters[inner[0]]
				runsCode = isInterp || strings.HasPrefix(inner[0], "python3.")
			}
			if !runsCode || off < 0 {
				return true
			}
			for _, w := range x.Args[off+1:] {
				if decodingSubst(w) {
					how = "`" + inner[0] + "` running code a command substitution decodes"
					return false
				}
			}
		}
		return true
	})
	if how == "" {
		return ""
	}
	return how
}

func anyFlagWith(args []string, c byte) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.IndexByte(a, c) > 0 {
			return true
		}
	}
	return false
}

// ansiEscaped reports a word with $'...' escapes in it.
func ansiEscaped(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if q, ok := p.(*syntax.SglQuoted); ok && q.Dollar && strings.Contains(q.Value, `\`) {
			return true
		}
	}
	return false
}

// decodingSubst reports a word holding a command substitution whose
// commands decode (or an interpreter that prints decoded text).
func decodingSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		cs, ok := n.(*syntax.CmdSubst)
		if !ok || found {
			return !found
		}
		syntax.Walk(cs, func(m syntax.Node) bool {
			st, ok := m.(*syntax.Stmt)
			if !ok || found {
				return !found
			}
			if code, ok := stmtInterpreterCode(st); ok && decoder.MatchString(code) {
				found = true
			}
			if c, ok := st.Cmd.(*syntax.CallExpr); ok {
				var words []string
				for _, a := range c.Args {
					s, _ := Literal(a)
					words = append(words, s)
				}
				if decodes(unwrapCall(words)) {
					found = true
				}
			}
			return !found
		})
		return false
	})
	return found
}

// pipesDecoded reports a pipeline with a decoding stage before a shell or
// interpreter that reads its script from standard input.
func pipesDecoded(p *syntax.BinaryCmd) bool {
	stmts := PipeStages(p)
	decoded := false
	for _, st := range stmts {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			continue
		}
		var words []string
		for _, a := range c.Args {
			s, _ := Literal(a)
			words = append(words, s)
		}
		w := unwrapCall(words)
		if len(w) == 0 {
			continue
		}
		if decoded && runsStdin(w) {
			return true
		}
		decoded = decoded || decodes(w)
	}
	return false
}

// runsStdin reports a shell or interpreter that runs its standard input.
func runsStdin(w []string) bool {
	if readsStdin(w) {
		return true
	}
	if _, ok := interpreters[w[0]]; !ok && !strings.HasPrefix(w[0], "python3.") {
		return false
	}
	for _, a := range w[1:] {
		if a != "-" && !strings.HasPrefix(a, "-") {
			return false // a script file
		}
		if _, ok := interpreterCode(w); ok {
			return false
		}
	}
	return true
}

// RecordsRefs are the ref prefixes sessiongate keeps its records under.
var RecordsRefs = []string{"refs/sessiongate/"}

// TouchesRecords describes a git command of the line that deletes,
// moves or overwrites one of sessiongate's refs (protected: full ref
// names or prefixes ending in "/"), "" when none does: `git update-ref`
// of one (or fed from standard input the line does not show), `git push`
// deleting or overwriting one on a remote (`:refs/...`, `--delete`,
// `--mirror`), `git fetch` into one, `git replace` (which makes git read
// other objects under any ref). Other refs (the agent's own branches) are
// not this.
func TouchesRecords(line string, protected []string) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	hit := func(ref string) bool {
		ref = strings.TrimPrefix(ref, "+")
		for _, p := range protected {
			if ref == strings.TrimSuffix(p, "/") || strings.HasPrefix(ref, p) {
				return true
			}
			// a glob destination that covers it: refs/*
			if i := strings.IndexByte(ref, '*'); i >= 0 && strings.HasPrefix(p, ref[:i]) {
				return true
			}
		}
		return false
	}
	for _, c := range calls {
		w := unwrapCall(expandedWords(c))
		if len(w) == 0 || w[0] != "git" {
			continue
		}
		i, configs := gitGlobals(w)
		// An alias defined on the line runs its text: `git -c
		// alias.u='update-ref -d refs/sessiongate/records' u`, or a
		// `git config alias.u ...` for a later call.
		aliases := configs
		if i < len(w) && w[i] == "config" {
			for k := i + 1; k+1 < len(w); k++ {
				aliases = append(aliases, w[k]+"="+w[k+1])
			}
		}
		for _, kv := range aliases {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || !strings.HasPrefix(strings.ToLower(k), "alias.") {
				continue
			}
			cmd := "git " + v
			if rest, ok := strings.CutPrefix(v, "!"); ok {
				cmd = rest
			}
			if why := TouchesRecords(cmd, protected); why != "" {
				return "`git` alias " + k + ": " + why
			}
		}
		if i >= len(w) {
			continue
		}
		sub, args := w[i], w[i+1:]
		switch sub {
		case "update-ref":
			for k := 0; k < len(args); k++ {
				a := args[k]
				if a == "-m" {
					k++ // the reflog message, not the ref
					continue
				}
				if a == "--stdin" {
					// Its input is not judged here; the agent's own branches
					// are moved with operands.
					return "`git update-ref --stdin` (its input may name sessiongate's records ref)"
				}
				if !strings.HasPrefix(a, "-") && (hit(a) || a == "") {
					return "`git update-ref` of sessiongate's records ref"
				}
				if !strings.HasPrefix(a, "-") {
					break // the ref is the first operand
				}
			}
		case "symbolic-ref":
			for _, a := range args {
				if hit(a) {
					return "`git symbolic-ref` over sessiongate's records ref"
				}
			}
		case "push", "fetch":
			// A destination short of refs/ is completed as git does: `git
			// push . --delete sessiongate/records` deletes
			// refs/sessiongate/records (git's refs/%s rule).
			hit := func(ref string) bool {
				r := strings.TrimPrefix(ref, "+")
				return hit(ref) || r != "" && !strings.HasPrefix(r, "refs/") && hit("refs/"+r)
			}
			del := false
			for _, a := range args {
				switch {
				case a == "--delete" || a == "-d" && sub == "push":
					del = true
				case a == "--mirror" && sub == "push":
					return "`git push --mirror` (deletes remote refs missing here, sessiongate's records among them)"
				case strings.HasPrefix(a, "-"):
				default:
					forced := strings.HasPrefix(a, "+")
					src, dst, colon := strings.Cut(strings.TrimPrefix(a, "+"), ":")
					switch {
					case !colon && del && hit(src):
						return "`git push --delete " + a + "` (deletes sessiongate's records ref on the remote)"
					case !colon:
						// a ref pushed or fetched by its own name: added, never replaced by another
					case hit(dst) && (src == "" || forced || !hit(src)):
						return "`git " + sub + " " + a + "` (deletes or overwrites sessiongate's records ref)"
					}
				}
			}
		case "replace":
			if !anyFlag(args, "-l", "--list") && len(args) > 0 {
				return "`git replace` (makes git read other objects in place of the records)"
			}
		}
	}
	return ""
}

// PrunesUnreachable describes a git command of the line that removes
// unreachable objects or reflog entries now (`git reflog expire`, `git
// reflog delete`, `git gc --prune=now`, `git prune`), "" when none does:
// after a records ref is deleted they take away what would bring it
// back. `git gc` with its default grace period is not this.
func PrunesUnreachable(line string) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := unwrapCall(expandedWords(c))
		if len(w) == 0 || w[0] != "git" {
			continue
		}
		i, _ := gitGlobals(w)
		if i >= len(w) {
			continue
		}
		args := w[i+1:]
		switch w[i] {
		case "reflog":
			if len(args) > 0 && (args[0] == "expire" || args[0] == "delete") {
				return "`git reflog " + args[0] + "`"
			}
		case "prune":
			if !anyFlag(args, "-n", "--dry-run") {
				return "`git prune`"
			}
		case "gc":
			for _, a := range args {
				if a == "--prune=now" || a == "--prune=all" || strings.HasPrefix(a, "--prune=") && strings.Contains(a, "now") {
					return "`git gc " + a + "`"
				}
			}
		}
	}
	return ""
}
