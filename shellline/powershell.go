package shellline

import (
	"encoding/base64"
	"path"
	"strings"
	"unicode/utf16"
)

// Dialect is the shell a command line is written for: an agent's shell
// tool says which (Copilot's `bash` and `powershell` tools).
type Dialect string

// Dialects.
const (
	Sh         Dialect = ""           // a POSIX shell: sh, bash, zsh
	PowerShell Dialect = "powershell" // Windows PowerShell and pwsh
)

// WritesIn is Writes for a line of the given dialect. A PowerShell line is
// read by both parsers and the files either finds are listed: the common
// writes (`echo x > f`, `cp a b`) read the same in both, and a write only
// one of them sees still counts. ok is false when neither reads the line.
func WritesIn(d Dialect, line string) ([]string, bool) {
	if d != PowerShell {
		return Writes(line)
	}
	ps, ok := PowerShellWrites(line)
	if sh, shOK := Writes(line); shOK {
		for _, p := range sh {
			if !containsStr(ps, p) {
				ps = append(ps, p)
			}
		}
		ok = true
	}
	return ps, ok
}

// LinesIn lists the POSIX lines that stand for a line of the given dialect,
// for the checks that read a line's commands (GitBypass, Unhooks,
// RunsAgentHook...): the line itself, and for PowerShell also its commands
// as POSIX words (`& 'git' commit --no-verify`, `Start-Process git
// -ArgumentList 'commit','-n'` and `pwsh -c '...'` become `git commit ...`);
// for sh also the commands hidden in it (Inner: eval, a here-string fed to
// a shell, a function defined on the line...).
func LinesIn(d Dialect, line string) []string {
	if d != PowerShell {
		return append([]string{line}, Inner(line)...)
	}
	calls, ok := PowerShellCalls(line)
	if !ok || len(calls) == 0 {
		return []string{line}
	}
	var b strings.Builder
	for _, c := range calls {
		for i, w := range c {
			if i > 0 {
				b.WriteByte(' ')
			}
			if w == "" {
				b.WriteString(`"$unknown"`) // an expansion: unknown, as in sh
				continue
			}
			b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
		}
		b.WriteByte('\n')
	}
	return []string{line, b.String()}
}

// psToken is one word of a PowerShell statement. text is its value when lit
// (no variable, subexpression or wildcard-free doubt); op marks a
// redirection (">" with the target in the next token, or "merge" for 2>&1)
// or an array comma (",").
type psToken struct {
	text string
	lit  bool
	op   string
}

// maxPSDepth bounds nested -Command, Invoke-Expression and $(...) text.
const maxPSDepth = 4

// psStatements splits a PowerShell line into statements of tokens:
// `;`, newlines, pipes, `&&`, `||`, a trailing `&`, braces and parentheses
// end a statement (a script block's or subexpression's commands are
// statements of their own). Text in $( ) inside double quotes is read as
// statements too. ok is false for an unterminated quote.
func psStatements(line string, depth int) (stmts [][]psToken, ok bool) {
	var cur []psToken
	var tok strings.Builder
	inTok, lit := false, true
	flush := func() {
		if inTok {
			cur = append(cur, psToken{text: tok.String(), lit: lit})
		}
		tok.Reset()
		inTok, lit = false, true
	}
	end := func() {
		flush()
		if len(cur) > 0 {
			stmts = append(stmts, cur)
		}
		cur = nil
	}
	nested := func(text string) bool {
		if depth >= maxPSDepth {
			return true
		}
		inner, ok := psStatements(text, depth+1)
		stmts = append(stmts, inner...)
		return ok
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\'' || c == '‘' || c == '’':
			inTok = true
			j := i + 1
			for ; j < len(rs); j++ {
				if rs[j] == '\'' || rs[j] == '‘' || rs[j] == '’' {
					if j+1 < len(rs) && rs[j+1] == rs[j] {
						tok.WriteRune(rs[j]) // '' is a quote
						j++
						continue
					}
					break
				}
				tok.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return nil, false
			}
			i = j
		case c == '"' || c == '“' || c == '”':
			inTok = true
			j := i + 1
			for ; j < len(rs); j++ {
				d := rs[j]
				if d == '"' || d == '“' || d == '”' {
					if j+1 < len(rs) && rs[j+1] == '"' {
						tok.WriteByte('"')
						j++
						continue
					}
					break
				}
				if d == '`' && j+1 < len(rs) {
					j++
					tok.WriteRune(psEscape(rs[j]))
					continue
				}
				if d == '$' && j+1 < len(rs) && rs[j+1] == '(' {
					k := matchParen(rs, j+1)
					if k < 0 {
						return nil, false
					}
					if !nested(string(rs[j+2 : k])) {
						return nil, false
					}
					lit = false
					j = k
					continue
				}
				if d == '$' && j+1 < len(rs) && psVarStart(rs[j+1]) {
					lit = false
				}
				tok.WriteRune(d)
			}
			if j >= len(rs) {
				return nil, false
			}
			i = j
		case c == '`':
			if i+1 < len(rs) {
				i++
				if rs[i] != '\n' { // a line continuation
					inTok = true
					tok.WriteRune(rs[i])
				}
			}
		case c == '#' && !inTok:
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			end()
		case c == '<' && i+1 < len(rs) && rs[i+1] == '#':
			k := strings.Index(string(rs[i:]), "#>")
			if k < 0 {
				return nil, false
			}
			i += len([]rune(string(rs[i:])[:k])) + 1
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == ';' || c == '\n' || c == '{' || c == '}' || c == ')':
			end()
		case c == '(':
			if inTok && (tok.String() == "$" || tok.String() == "@") {
				tok.Reset()
				lit = false
			}
			if inTok {
				lit = false // a word with a subexpression in it
				flush()
			}
			end()
		case c == '|':
			end()
			if i+1 < len(rs) && rs[i+1] == '|' {
				i++
			}
		case c == '&':
			switch {
			case i+1 < len(rs) && rs[i+1] == '&':
				end()
				i++
			case !inTok && len(cur) == 0:
				cur = append(cur, psToken{op: "&"}) // the call operator
			default:
				end() // a background job
			}
		case c == ',':
			flush()
			cur = append(cur, psToken{op: ","})
		case c == '>':
			// N> and *> name a stream: drop the number from the word.
			if inTok && len(tok.String()) == 1 && strings.ContainsAny(tok.String(), "*123456") {
				tok.Reset()
				inTok = false
			}
			flush()
			if i+1 < len(rs) && rs[i+1] == '>' {
				i++
			}
			if i+2 < len(rs) && rs[i+1] == '&' && rs[i+2] >= '1' && rs[i+2] <= '6' {
				i += 2
				cur = append(cur, psToken{op: "merge"})
				continue
			}
			cur = append(cur, psToken{op: ">"})
		case c == '$':
			inTok = true
			if i+1 < len(rs) && (psVarStart(rs[i+1]) || rs[i+1] == '{') {
				lit = false
			}
			tok.WriteRune(c)
		case c == '@' && i+1 < len(rs) && (rs[i+1] == '(' || rs[i+1] == '{'):
			inTok, lit = true, false
			tok.WriteRune(c)
		default:
			inTok = true
			tok.WriteRune(c)
		}
	}
	end()
	return stmts, true
}

func psVarStart(r rune) bool {
	return r == '_' || r == '{' || r == '(' || r == '?' || r == '^' || r == ':' ||
		r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// psEscape is a backtick escape in double quotes.
func psEscape(r rune) rune {
	switch r {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case '0':
		return 0
	}
	return r
}

// matchParen is the index of the ')' closing rs[open] = '(', -1 if none.
func matchParen(rs []rune, open int) int {
	depth := 0
	var quote rune
	for i := open; i < len(rs); i++ {
		switch c := rs[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// psArg is one argument of a command: a parameter or a value (a comma list
// is one value of several items; "" items are unknown).
type psArg struct {
	param string // the parameter's full name; "-" a switch, "" a positional value
	value []string
}

// psCmdlet describes the file parameters of a cmdlet that writes files.
type psCmdlet struct {
	positional []string // parameters by position
	values     []string // other parameters that take a value
	writes     []string // parameters whose values are files written
}

var psCommon = []string{"ErrorAction", "WarningAction", "InformationAction", "ErrorVariable", "WarningVariable",
	"InformationVariable", "OutVariable", "OutBuffer", "PipelineVariable", "Credential", "Filter", "Include", "Exclude", "Stream", "Encoding"}

var psCmdlets = map[string]psCmdlet{
	"set-content":   {positional: []string{"Path", "Value"}, values: []string{"LiteralPath"}, writes: []string{"Path", "LiteralPath"}},
	"add-content":   {positional: []string{"Path", "Value"}, values: []string{"LiteralPath"}, writes: []string{"Path", "LiteralPath"}},
	"clear-content": {positional: []string{"Path"}, values: []string{"LiteralPath"}, writes: []string{"Path", "LiteralPath"}},
	"out-file":      {positional: []string{"FilePath", "Encoding"}, values: []string{"LiteralPath", "InputObject", "Width"}, writes: []string{"FilePath", "LiteralPath"}},
	"tee-object":    {positional: []string{"FilePath"}, values: []string{"LiteralPath", "Variable", "InputObject"}, writes: []string{"FilePath", "LiteralPath"}},
	"export-csv":    {positional: []string{"Path"}, values: []string{"LiteralPath", "InputObject", "Delimiter"}, writes: []string{"Path", "LiteralPath"}},
	"new-item":      {positional: []string{"Path"}, values: []string{"Name", "ItemType", "Value", "Target"}, writes: []string{"Path"}},
	"remove-item":   {positional: []string{"Path"}, values: []string{"LiteralPath"}, writes: []string{"Path", "LiteralPath"}},
	"move-item":     {positional: []string{"Path", "Destination"}, values: []string{"LiteralPath"}, writes: []string{"Path", "LiteralPath", "Destination"}},
	"copy-item":     {positional: []string{"Path", "Destination"}, values: []string{"LiteralPath", "ToSession", "FromSession"}, writes: []string{"Destination"}},
	"rename-item":   {positional: []string{"Path", "NewName"}, values: []string{"LiteralPath"}, writes: []string{"Path", "LiteralPath", "NewName"}},
}

// psAliases are the built-in aliases of those cmdlets (Windows PowerShell's;
// on pwsh for Linux rm, cp, mv are the programs, which write the same files).
var psAliases = map[string]string{
	"sc": "set-content", "ac": "add-content", "clc": "clear-content", "ni": "new-item",
	"ri": "remove-item", "rm": "remove-item", "del": "remove-item", "erase": "remove-item", "rd": "remove-item", "rmdir": "remove-item",
	"mi": "move-item", "mv": "move-item", "move": "move-item",
	"cpi": "copy-item", "cp": "copy-item", "copy": "copy-item",
	"rni": "rename-item", "ren": "rename-item", "tee": "tee-object", "epcsv": "export-csv",
	"iex": "invoke-expression", "saps": "start-process", "start": "start-process",
	"cd": "set-location", "sl": "set-location", "chdir": "set-location", "pushd": "push-location",
}

// psName is a command word as PowerShell finds it: case-insensitive,
// without its folder or .exe, aliases resolved.
func psName(w string) string {
	w = strings.ToLower(w)
	if i := strings.LastIndexAny(w, `/\`); i >= 0 {
		w = w[i+1:]
	}
	w = strings.TrimSuffix(w, ".exe")
	if a, ok := psAliases[w]; ok {
		return a
	}
	return w
}

// psArgs groups a command's tokens after its name into parameters and
// values; names is the cmdlet's value-taking parameters (others are
// switches).
func psArgs(toks []psToken, names []string) []psArg {
	var out []psArg
	val := func(t psToken) string {
		if t.lit {
			return t.text
		}
		return ""
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.op != "" {
			continue
		}
		if t.lit && len(t.text) > 1 && t.text[0] == '-' && !strings.HasPrefix(t.text, "--") {
			name, v, hasV := strings.Cut(t.text, ":")
			full := psParam(name[1:], names)
			a := psArg{param: full}
			switch {
			case hasV:
				a.value = []string{v}
			case full != "" && i+1 < len(toks) && toks[i+1].op == "":
				i++
				a.value = []string{val(toks[i])}
			}
			for a.value != nil && i+2 < len(toks) && toks[i+1].op == "," && toks[i+2].op == "" {
				a.value = append(a.value, val(toks[i+2]))
				i += 2
			}
			if full == "" {
				a.param = "-" // a switch
			}
			out = append(out, a)
			continue
		}
		a := psArg{value: []string{val(t)}}
		for i+2 < len(toks) && toks[i+1].op == "," && toks[i+2].op == "" {
			a.value = append(a.value, val(toks[i+2]))
			i += 2
		}
		out = append(out, a)
	}
	return out
}

// psParam resolves a parameter as written (a unique prefix, any case) to
// one of names, "" when it names none (a switch).
func psParam(p string, names []string) string {
	found := ""
	for _, n := range names {
		if strings.EqualFold(n, p) {
			return n
		}
		if len(p) > 0 && len(p) <= len(n) && strings.EqualFold(n[:len(p)], p) {
			if found != "" {
				return "" // ambiguous
			}
			found = n
		}
	}
	return found
}

// bind gives each named parameter its values: positional values in order.
func (c psCmdlet) bind(args []psArg) map[string][]string {
	got := map[string][]string{}
	pos := 0
	for _, a := range args {
		switch {
		case a.param == "-":
		case a.param != "":
			got[a.param] = append(got[a.param], a.value...)
		case pos < len(c.positional):
			got[c.positional[pos]] = append(got[c.positional[pos]], a.value...)
			pos++
		}
	}
	return got
}

func (c psCmdlet) names() []string {
	n := append(append(append([]string{}, c.positional...), c.values...), psCommon...)
	return n
}

// psCall is one command of a PowerShell line: its words ("" unknown) and
// the files its redirections and file parameters write.
type psCall struct {
	words  []string
	writes []string
}

// psCalls reads a line's commands, looking through Start-Process, the call
// operator, Invoke-Expression and powershell/pwsh -Command (also
// -EncodedCommand) into what they run.
func psCalls(line string, depth int) ([]psCall, bool) {
	stmts, ok := psStatements(line, depth)
	if !ok {
		return nil, false
	}
	var out []psCall
	for _, st := range stmts {
		out = append(out, psStatementCalls(st, depth)...)
	}
	return out, true
}

func psStatementCalls(st []psToken, depth int) []psCall {
	c := psCall{}
	// Redirections write wherever they stand in the statement.
	var toks []psToken
	for i := 0; i < len(st); i++ {
		if st[i].op == ">" {
			if i+1 < len(st) && st[i+1].op == "" {
				i++
				if st[i].lit {
					c.writes = append(c.writes, st[i].text)
				}
			}
			continue
		}
		if st[i].op == "merge" {
			continue
		}
		toks = append(toks, st[i])
	}
	if len(toks) > 0 && toks[0].op == "&" {
		toks = toks[1:]
	}
	if len(toks) > 0 && toks[0].lit && toks[0].text == "." && len(toks) > 1 {
		toks = toks[1:] // dot-sourcing runs the script
	}
	for _, t := range toks {
		if t.op == "" {
			if t.lit {
				c.words = append(c.words, t.text)
			} else {
				c.words = append(c.words, "")
			}
		}
	}
	if len(toks) == 0 || toks[0].op != "" {
		if len(c.writes) > 0 {
			return []psCall{c}
		}
		return nil
	}
	out := []psCall{}
	name := ""
	if toks[0].lit {
		name = psName(toks[0].text)
	}
	rest := toks[1:]
	switch name {
	case "start-process":
		spec := psCmdlet{positional: []string{"FilePath", "ArgumentList"}, values: []string{"WorkingDirectory", "Verb", "WindowStyle",
			"RedirectStandardOutput", "RedirectStandardError", "RedirectStandardInput", "Environment"}}
		got := spec.bind(psArgs(rest, spec.names()))
		c.writes = append(c.writes, got["RedirectStandardOutput"]...)
		c.writes = append(c.writes, got["RedirectStandardError"]...)
		if fp := got["FilePath"]; len(fp) == 1 {
			inner := []string{fp[0]}
			for _, a := range got["ArgumentList"] {
				if a == "" {
					inner = append(inner, "")
					continue
				}
				inner = append(inner, strings.Fields(a)...)
			}
			out = append(out, psRun(inner, depth)...)
		}
	case "invoke-expression":
		for _, a := range psArgs(rest, []string{"Command"}) {
			for _, v := range a.value {
				if v != "" && depth < maxPSDepth {
					inner, _ := psCalls(v, depth+1)
					out = append(out, inner...)
				}
			}
		}
	default:
		if spec, ok := psCmdlets[name]; ok {
			got := spec.bind(psArgs(rest, spec.names()))
			for _, p := range spec.writes {
				if name == "new-item" && p == "Path" && len(got["Name"]) > 0 {
					continue // -Path is the folder of -Name
				}
				for _, v := range got[p] {
					if v == "" {
						continue
					}
					if p == "NewName" && len(got["Path"]) == 1 && !strings.ContainsAny(v, `/\`) {
						v = path.Join(path.Dir(psSlash(got["Path"][0])), v)
					}
					c.writes = append(c.writes, v)
				}
			}
			if name == "new-item" {
				for _, n := range got["Name"] {
					dir := "."
					if ps := got["Path"]; len(ps) == 1 && ps[0] != "" {
						dir = ps[0]
					}
					if n != "" {
						c.writes = append(c.writes, path.Join(psSlash(dir), psSlash(n)))
					}
				}
			}
		} else {
			out = append(out, psRun(c.words, depth)...)
			if len(out) > 0 {
				out[0].writes = append(c.writes, out[0].writes...)
				return out
			}
		}
	}
	return append([]psCall{c}, out...)
}

// psRun reads a program run with words: powershell/pwsh -Command runs
// PowerShell text, cmd /c runs cmd text (read as PowerShell: the same
// redirections), sh -c runs POSIX text; other programs write the files
// Writes knows for them (tee, touch, sed -i...).
func psRun(words []string, depth int) []psCall {
	if len(words) == 0 {
		return nil
	}
	name := psName(words[0])
	switch name {
	case "powershell", "pwsh":
		text, ok := psCommandText(words[1:])
		if ok && depth < maxPSDepth {
			inner, _ := psCalls(text, depth+1)
			return append([]psCall{{words: words}}, inner...)
		}
	case "cmd":
		for i, w := range words[1:] {
			if lw := strings.ToLower(w); lw == "/c" || lw == "/k" {
				if depth < maxPSDepth {
					inner, _ := psCalls(strings.Join(words[i+2:], " "), depth+1)
					return append([]psCall{{words: words}}, inner...)
				}
			}
		}
	}
	args := unwrapCall(append([]string{strings.TrimSuffix(CommandName(strings.ReplaceAll(words[0], `\`, "/")), ".exe")}, words[1:]...))
	c := psCall{words: words, writes: writtenOperands(args)}
	if script, ok := shellScript(args); ok {
		if sh, ok := Writes(script); ok {
			c.writes = append(c.writes, sh...)
		}
	}
	return []psCall{c}
}

// psCommandText is the PowerShell text of powershell/pwsh arguments:
// -Command (-c, and what follows it), -EncodedCommand (base64 of UTF-16LE),
// or, without either, the words that are not options (-File script.ps1
// runs a script: unknown).
func psCommandText(args []string) (string, bool) {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i])
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "/") {
			if strings.HasSuffix(a, ".ps1") {
				return "", false
			}
			return strings.Join(args[i:], " "), true
		}
		a = strings.TrimLeft(a, "-/")
		switch {
		case a == "f" || a == "file":
			return "", false
		case a == "commandwithargs" || a == "cwa" || strings.HasPrefix("command", a):
			return strings.Join(args[i+1:], " "), i+1 < len(args)
		case a == "e" || a == "ec" || strings.HasPrefix("encodedcommand", a) && len(a) >= 2 && a[0] == 'e' && a != "ex" && a != "executionpolicy":
			if i+1 < len(args) {
				return decodeUTF16Base64(args[i+1])
			}
			return "", false
		case a == "executionpolicy" || a == "ex" || a == "ep" || a == "windowstyle" || a == "w" || a == "configurationname" ||
			a == "workingdirectory" || a == "wd" || a == "outputformat" || a == "o" || a == "of" || a == "inputformat" || a == "if" || a == "version" || a == "v":
			i++ // the option's value
		}
	}
	return "", false
}

func decodeUTF16Base64(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

// psSlash writes a Windows path with forward slashes and without a
// leading .\ (.\SESSION-PROTOCOL.md is SESSION-PROTOCOL.md).
func psSlash(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// PowerShellCalls lists the commands a PowerShell line runs, as words (""
// for a word PowerShell would expand), including what Start-Process, the
// call operator (& 'git' ...), Invoke-Expression and powershell/pwsh
// -Command run. ok is false when the line does not read as PowerShell (an
// unterminated quote).
func PowerShellCalls(line string) ([][]string, bool) {
	calls, ok := psCalls(line, 0)
	if !ok {
		return nil, false
	}
	var out [][]string
	for _, c := range calls {
		if len(c.words) > 0 {
			out = append(out, c.words)
		}
	}
	return out, true
}

// PowerShellWrites lists the files a PowerShell line writes by plain means:
// redirections (>, >>, 2>, *>), Set-Content, Add-Content, Clear-Content,
// Out-File, Tee-Object, Export-Csv, New-Item, Remove-Item, Move-Item,
// Copy-Item (its destination), Rename-Item (old and new name) and their
// aliases (sc, ac, ni, ri, rm, del, mv, cp, move, copy, ren...),
// Start-Process's -RedirectStandardOutput, and the writes of what
// Start-Process, & and -Command run. Paths come with forward slashes
// (.\x is x); Set-Location (cd) moves where relative ones land. Only
// literal values count; $null and NUL are not files. Like Writes it is not
// a sandbox.
func PowerShellWrites(line string) ([]string, bool) {
	stmts, ok := psStatements(line, 0)
	if !ok {
		return nil, false
	}
	cwd := ""
	var out []string
	for _, st := range stmts {
		// A statement at a time, so that cd moves the statements after it.
		for _, c := range psStatementCalls(st, 0) {
			if len(c.words) == 2 && c.words[1] != "" && (psName(c.words[0]) == "set-location" || psName(c.words[0]) == "push-location") {
				d := psSlash(c.words[1])
				if path.IsAbs(d) || psDrive(d) {
					cwd = d
				} else {
					cwd = path.Join(cwd, d)
				}
			}
			for _, p := range c.writes {
				p = psSlash(p)
				lp := strings.ToLower(p)
				if p == "" || lp == "nul" || lp == "$null" || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "-") {
					continue
				}
				if cwd != "" && !path.IsAbs(p) && !psDrive(p) {
					p = path.Join(cwd, p)
				}
				out = append(out, p)
			}
		}
	}
	return out, true
}

// psDrive: C:/... is absolute on Windows.
func psDrive(p string) bool {
	return len(p) >= 3 && p[1] == ':' && p[2] == '/' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}
