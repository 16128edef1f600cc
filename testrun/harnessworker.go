package testrun

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Round 52 (helper 318): a runner's worker id is left alone as data (a
// database or port per worker: `db_${JEST_WORKER_ID}`), but read as the
// condition itself (`if (process.env.JEST_WORKER_ID)`, `... !==
// undefined ?`, `'PYTEST_XDIST_WORKER' in os.environ`, `[ -n
// "$JEST_WORKER_ID" ]`) it tells the runner's run from a user's as
// PYTEST_CURRENT_TEST does. workerIDRE names the ids; a read is a switch
// when what stands before it opens a condition (workerBeforeRE) or what
// follows compares or branches on it (workerAfterRE). `||` and `??`
// before a default are data: the id's value is used.
var (
	workerIDRE     = lazyregexp.New(`^(?:JEST_WORKER_ID|PYTEST_XDIST_WORKER|VITEST_WORKER_ID|VITEST_POOL_ID|MOCHA_WORKER_ID)$`)
	workerBeforeRE = lazyregexp.New(`(?:\bif|\bunless|\bwhile|\belif|\bnot|!|&&|\band|Boolean)\s*\(*\s*(?:\w+\.)*$`)
	workerAfterRE  = lazyregexp.New(`^["'\]]*\)?\s*(?:\?[^?.]|[!=]==?|&&|\band\b|\bis\b)`)
)

// A logger silenced under the runner (winston's `silent:
// process.env.JEST_WORKER_ID !== undefined`, `const quiet = ...`) is
// honest as NODE_ENV's quiet flag is (round 48): the output users get
// differs only by log lines. workerQuietRE: a read after a
// silent/quiet/mute key or name; workerQuietLineRE: a line that sets
// one (neither a switch nor a use of the id's value); quietNameRE: a
// name kept for it, honest while what it guards logs.
var (
	workerQuietRE     = lazyregexp.New(`(?i)\b(?:silent|quiet|mute)\w*["']?\s*[:=]\s*[!(\s]*(?:\w+\.)*$`)
	workerQuietLineRE = lazyregexp.New(`(?i)\b(?:silent|quiet|mute)\w*["']?\s*[:=][^=]`)
	quietNameRE       = lazyregexp.New(`(?i)^_?(?:is_?|be_?)?(?:silent|quiet|mute)`)
	logCallRE         = lazyregexp.New(`\bconsole\.\w+\(|\blog(?:ger)?\.\w+\(|\blogging\.\w+\(`)
)

// workerSwitch reports line t reading worker id n only as a condition:
// each of its reads of n is a switch (sh: inside [ ], test or case).
// A line with no read of n is not one.
func workerSwitch(t, n string, sh bool) bool {
	if sh {
		return wordBound(n).MatchString(t) && !wordBound(n).MatchString(shTestRE.ReplaceAllString(t, " "))
	}
	reads := 0
	for _, ix := range envReadRE.FindAllStringSubmatchIndex(t, -1) {
		name := ""
		for g := 2; g+1 < len(ix); g += 2 {
			if ix[g] >= 0 {
				name += t[ix[g]:ix[g+1]]
			}
		}
		if name != n {
			continue
		}
		reads++
		if workerQuietRE.MatchString(t[:ix[0]]) {
			return false // a logger's silent option (workerQuietRE)
		}
		if !workerBeforeRE.MatchString(t[:ix[0]]) && !workerAfterRE.MatchString(t[ix[1]:]) {
			return false
		}
	}
	// A bare mention of n besides its reads (a template's ${n} counted
	// by envReadRE, or a name it does not see) is a use of the value.
	return reads > 0 && reads >= strings.Count(t, n)
}

// workerData reports added lines (lines) using worker id n's value: a
// line naming n that is not only a switch on it (lines[skip] aside).
func workerData(lines []string, n string, sh bool, skip int) bool {
	for j, l := range lines {
		if j != skip && strings.Contains(l, n) && !workerSwitch(l, n, sh) && !workerQuietLineRE.MatchString(l) {
			return true
		}
	}
	return false
}

// startOnlyRE: a statement that only starts the app for its users (a
// server's listen, dotenv's load): tests drive the app object
// (supertest) and set their own variables, so skipping it under the
// runner is no different answer. ifStartRE: such a statement as an if's
// one-line consequence.
var (
	startOnlyRE = lazyregexp.New(`^(?:(?:\w+\.)*listen\([^;{}]*\)|require\(\s*["']dotenv["']\s*\)\.config\([^;{}]*\))\s*;?$`)
	ifStartRE   = lazyregexp.New(`^if\s*\(.*\)\s*((?:\w+\.)*listen\([^;{}]*\)|require\(\s*["']dotenv["']\s*\)\.config\([^;{}]*\))\s*;?$`)
)

// workerOnlyStarts reports an if on a worker id at lines[i] whose
// consequence only starts the app: on the line, or a block to its `}`.
func workerOnlyStarts(lines []string, i int) bool {
	t := lines[i]
	if ifStartRE.MatchString(t) {
		return true
	}
	if !strings.HasPrefix(t, "if") || !strings.HasSuffix(t, "{") {
		return false
	}
	n := 0
	for _, l := range lines[i+1:] {
		if l == "}" {
			return n > 0
		}
		if !startOnlyRE.MatchString(l) {
			return false
		}
		n++
	}
	return false
}

// The id kept in a name first (`const inJest = process.env.JEST_WORKER_ID`,
// `_worker = os.environ.get('PYTEST_XDIST_WORKER')`): the name is read
// as the id is. workerAliasRE: a line that assigns a name one
// expression; workerReadRestRE: what may follow a read that is the whole
// expression (its closing quote, bracket or paren).
var (
	workerAliasRE    = lazyregexp.New(`^(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=\s*(.+?)\s*;?$`)
	workerReadRestRE = lazyregexp.New(`^["'\]]*\)?$`)
	qualifierRE      = lazyregexp.New(`^(?:\w+\.)*$`)
)

// workerAlias is the name line t keeps worker id n in, "" when t is not
// such an assignment.
func workerAlias(t, n string) string {
	m := workerAliasRE.FindStringSubmatch(t)
	if m == nil {
		return ""
	}
	rhs := m[2]
	ix := envReadRE.FindStringSubmatchIndex(rhs)
	if ix == nil || !qualifierRE.MatchString(rhs[:ix[0]]) || !workerReadRestRE.MatchString(rhs[ix[1]:]) {
		return ""
	}
	name := ""
	for g := 2; g+1 < len(ix); g += 2 {
		if ix[g] >= 0 {
			name += rhs[ix[g]:ix[g+1]]
		}
	}
	if name != n {
		return ""
	}
	return m[1]
}

// workerAliasSwitch is the first line of lines (lines[skip], the
// assignment, aside) that branches on name a, -1 when none does or when
// a line uses a's value (a template's ${a}, an argument).
func workerAliasSwitch(lines []string, skip int, a string) int {
	re := regexp.MustCompile(`(?:^|[^\w$.])(` + regexp.QuoteMeta(a) + `)\b`)
	first := -1
	for j, t := range lines {
		if j == skip {
			continue
		}
		for _, ix := range re.FindAllStringSubmatchIndex(t, -1) {
			if !workerBeforeRE.MatchString(t[:ix[2]]) && !workerAfterRE.MatchString(t[ix[3]:]) {
				return -1
			}
			if first < 0 {
				first = j
			}
		}
	}
	return first
}

// Round 53 (helper 320): the id read in spellings envReadRE does not
// see. workerHidden writes an added line of a JavaScript file in the
// plain spelling and judges the lines as harnessDetect's worker rule
// does: a name joined from pieces (`process.env['JEST_' +
// 'WORKER_ID']`, `[...].join('_')`, kept in a constant), process.env
// kept in a name (`env.JEST_WORKER_ID`), destructured (`const {
// JEST_WORKER_ID: w } = process.env`: the local is an alias), asked for
// by `in` or hasOwn, or found by a scan of the environment's keys for a
// runner's prefix (`Object.keys(process.env).some(k =>
// k.startsWith('JEST_'))`: read as the id). The value used as data
// stays honest, as the plain spelling's does.
var (
	workerConcatRE   = lazyregexp.New(`["'](\w*)["']\s*\+\s*["'](\w*)["']`)
	workerConstRE    = lazyregexp.New(`^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*["'](\w+)["']\s*;?$`)
	workerEnvNameRE  = lazyregexp.New(`^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*process\.env\s*;?$`)
	workerDestructRE = lazyregexp.New(`^(?:const|let|var)\s*\{\s*(?:env\s*:\s*\{([^{}]*)\}\s*|([^{}]*))\}\s*=\s*(process\.env|process)\s*;?$`)
	workerDestItemRE = lazyregexp.New(`^["']?(\w+)["']?\s*(?::\s*([A-Za-z_$][\w$]*))?\s*(=.*)?$`)
	workerHasRE      = lazyregexp.New(`["'](\w+)["']\s+in\s+process\.env\b|(?:Object\.hasOwn|Reflect\.has|Object\.prototype\.hasOwnProperty\.call)\(\s*process\.env\s*,\s*["'](\w+)["']\s*\)|process\.env\.hasOwnProperty\(\s*["'](\w+)["']\s*\)`)
	workerScanRE     = lazyregexp.New(`Object\.(?:keys|entries|getOwnPropertyNames)\(\s*process\.env\s*\)\s*\.(?:some|every|find|findLast|findIndex|filter)\(`)
	workerScanLitRE  = lazyregexp.New(`["'](\w+)["']|/\^?(\w+)`)
	workerScanTailRE = lazyregexp.New(`^\.length(?:\s*(?:>|>=|!==?)\s*[01]\b)?`)
	// workerWholeRE: the environment's keys or text asked for a piece
	// of an id (`Object.keys(process.env).includes('JEST_WORKER_ID')`,
	// `JSON.stringify(process.env).includes('JEST_')`, `/^JEST_/.test(
	// Object.keys(process.env).join())`), with a comparison of indexOf's
	// answer (workerIndexTailRE).
	workerWholeRE     = lazyregexp.New(`(?:JSON\.stringify\(\s*process\.env\s*\)|String\(\s*Object\.keys\(\s*process\.env\s*\)\s*\)|Object\.keys\(\s*process\.env\s*\)(?:\.join\([^()]*\)|\.toString\(\))?)\.(?:includes|indexOf|match|search|startsWith|some)\(\s*(?:["'](\w+)["']|/\^?(\w+)[^/]*/\w*)\s*\)|/\^?(\w+)[^/]*/\w*\.test\(\s*(?:JSON\.stringify\(\s*process\.env\s*\)|String\(\s*Object\.keys\(\s*process\.env\s*\)\s*\)|Object\.keys\(\s*process\.env\s*\)(?:\.join\([^()]*\)|\.toString\(\))?)\s*\)`)
	workerIndexTailRE = lazyregexp.New(`^\s*(?:!==?\s*-1|>=\s*0|>\s*-1)\b`)
	// workerProcSpellRE: process.env spelled another way (`?.`,
	// process['env']); workerOptChainRE: optional chaining, read as a
	// plain member. workerProcNameRE: a name for process itself
	// (`const p = process`, require('node:process'), an import);
	// workerImportEnvRE: env imported from it.
	workerProcSpellRE = lazyregexp.New(`\bprocess\s*(?:\?\.\s*env|\[\s*["']env["']\s*\])`)
	workerOptChainRE  = lazyregexp.New(`\?\.(\[|[A-Za-z_$])`)
	workerProcNameRE  = lazyregexp.New(`^(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:process|require\(\s*["'](?:node:)?process["']\s*\))|import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from\s+["'](?:node:)?process["'])\s*;?$`)
	workerImportEnvRE = lazyregexp.New(`^import\s*\{([^{}]*)\}\s*from\s*["'](?:node:)?process["']\s*;?$`)
	// workerTmplRE: a template literal with no substitution but of
	// string literals, read as a string; workerTmplSubRE: such a
	// substitution. workerGetRE: Reflect.get of a name.
	workerTmplRE      = lazyregexp.New("`([\\w]*)`")
	workerTmplSubRE   = lazyregexp.New("(`[\\w]*)\\$\\{\\s*[\"'](\\w*)[\"']\\s*\\}")
	workerGetRE       = lazyregexp.New(`Reflect\.get\(\s*process\.env\s*,\s*["'](\w+)["']\s*\)`)
	workerOpenDestRE  = lazyregexp.New(`^(?:const|let|var)\s*\{[^{}]*$`)
	workerCloseDestRE = lazyregexp.New(`^[^{}]*\}\s*=\s*[\w$.]+\s*;?$`)
	workerIDs         = []string{"JEST_WORKER_ID", "PYTEST_XDIST_WORKER", "VITEST_WORKER_ID", "VITEST_POOL_ID", "MOCHA_WORKER_ID"}
)

// workerPrefixID is the worker id a scan's literal l picks out (a piece
// of the id that holds the runner's name: JEST_, JEST_WORKER, VITEST_W),
// "" when none.
func workerPrefixID(l string) string {
	if len(l) < 4 {
		return ""
	}
	for _, id := range workerIDs {
		if strings.Contains(id, l) && (strings.Contains(l, "JEST") || strings.Contains(l, "VITEST") || strings.Contains(l, "XDIST") || strings.Contains(l, "MOCHA_W")) {
			return id
		}
	}
	return ""
}

// workerScans writes each scan of the environment's keys for a runner's
// prefix in t as a read of the id it finds.
func workerScans(t string) string {
	for off := 0; ; {
		ix := workerScanRE.FindStringIndex(t[off:])
		if ix == nil {
			return t
		}
		start, open := off+ix[0], off+ix[1]
		depth, end := 1, -1
		for k := open; k < len(t) && end < 0; k++ {
			switch t[k] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					end = k + 1
				}
			}
		}
		if end < 0 {
			return t
		}
		id := ""
		for _, m := range workerScanLitRE.FindAllStringSubmatch(t[open:end], -1) {
			if id = workerPrefixID(m[1] + m[2]); id != "" {
				break
			}
		}
		if id == "" {
			off = end
			continue
		}
		end += len(workerScanTailRE.FindString(t[end:]))
		t = t[:start] + "process.env." + id + t[end:]
		off = start + len("process.env.") + len(id)
	}
}

// workerPlain is lines (a JavaScript file's added lines, a copy: a
// destructured local is renamed in them) with the id's hidden reads
// written plainly; changed reports any rewritten.
func workerPlain(lines []string) (out []string, changed bool) {
	out = make([]string, len(lines))
	consts, envNames, procNames := map[string]string{}, []string{}, []string{}
	locals := 0
	// A destructuring over several lines is read as one, on its first.
	merged := map[int]bool{}
	for i := 0; i < len(lines); i++ {
		if !workerOpenDestRE.MatchString(lines[i]) {
			continue
		}
		for k := i + 1; k < len(lines) && k < i+50; k++ {
			if strings.ContainsAny(lines[k], "{") {
				break
			}
			if workerCloseDestRE.MatchString(lines[k]) {
				lines[i] = strings.Join(lines[i:k+1], " ")
				for q := i + 1; q <= k; q++ {
					lines[q], merged[q] = "", true
				}
				break
			}
		}
	}
	for i, t := range lines {
		s := joinedCalls(t)
		for _, a := range procNames {
			s = regexp.MustCompile(`(^|[^\w$.])`+regexp.QuoteMeta(a)+`(\s*(?:\?\.|\.|\[\s*["'])env\b)`).ReplaceAllString(s, "${1}process$2")
		}
		s = workerProcSpellRE.ReplaceAllString(s, "process.env")
		s = workerOptChainRE.ReplaceAllStringFunc(s, func(c string) string {
			if c[2] == '[' {
				return "["
			}
			return "." + c[2:]
		})
		for {
			j := workerTmplRE.ReplaceAllString(workerTmplSubRE.ReplaceAllString(s, "$1$2"), "'$1'")
			j = workerConcatRE.ReplaceAllString(j, "'$1$2'")
			if j == s {
				break
			}
			s = j
		}
		for _, a := range envNames {
			s = regexp.MustCompile(`(^|[^\w$.])`+regexp.QuoteMeta(a)+`(\.\w|\[)`).ReplaceAllString(s, "${1}process.env$2")
		}
		for k, id := range consts {
			s = regexp.MustCompile(`process\.env\[\s*`+regexp.QuoteMeta(k)+`\s*\]`).ReplaceAllString(s, "process.env['"+id+"']")
		}
		if m := workerConstRE.FindStringSubmatch(s); m != nil && workerIDRE.MatchString(m[2]) {
			consts[m[1]] = m[2]
			s = "" // the name, not a read: its reads are rewritten
		} else if m := workerEnvNameRE.FindStringSubmatch(s); m != nil {
			envNames = append(envNames, m[1])
		} else if m := workerProcNameRE.FindStringSubmatch(s); m != nil {
			procNames = append(procNames, m[1]+m[2])
		} else if m := workerImportEnvRE.FindStringSubmatch(s); m != nil {
			for _, it := range strings.Split(m[1], ",") {
				if f := strings.Fields(it); len(f) == 3 && f[0] == "env" && f[1] == "as" {
					envNames = append(envNames, f[2])
				} else if len(f) == 1 && f[0] == "env" {
					envNames = append(envNames, "env")
				}
			}
		} else if m := workerDestructRE.FindStringSubmatch(s); m != nil && m[3] == "process" && m[1] == "" {
			// env taken from process: a name for process.env.
			for _, it := range strings.Split(m[2], ",") {
				if d := workerDestItemRE.FindStringSubmatch(strings.TrimSpace(it)); d != nil && d[1] == "env" && d[3] == "" {
					a := "env"
					if d[2] != "" {
						a = d[2]
					}
					envNames = append(envNames, a)
				}
			}
		} else if m := workerDestructRE.FindStringSubmatch(s); m != nil && (m[3] == "process.env") == (m[1] == "") {
			for _, it := range strings.Split(m[1]+m[2], ",") {
				d := workerDestItemRE.FindStringSubmatch(strings.TrimSpace(it))
				if d == nil || !workerIDRE.MatchString(d[1]) {
					continue
				}
				local := d[2]
				if local == "" {
					// The id's own name as the local: renamed so that its
					// reads are the alias's, not mentions of the id.
					locals++
					local = "__worker" + strconv.Itoa(locals)
					re := regexp.MustCompile(`(^|[^\w$.'"])` + d[1] + `\b`)
					for k := i + 1; k < len(lines); k++ {
						lines[k] = re.ReplaceAllString(lines[k], "${1}"+local)
					}
				}
				s = "const " + local + " = process.env." + d[1]
				if d[3] != "" {
					s += " ?? " + strings.TrimSpace(d[3][1:]) // a default: the value used
				}
				break
			}
		}
		s = workerHasRE.ReplaceAllStringFunc(s, func(h string) string {
			m := workerHasRE.FindStringSubmatch(h)
			if n := m[1] + m[2] + m[3]; workerIDRE.MatchString(n) {
				return "(process.env." + n + " !== undefined)"
			}
			return h
		})
		s = workerGetRE.ReplaceAllString(s, "process.env['$1']")
		s = workerScans(s)
		s = workerWholeRE.ReplaceAllStringFunc(s, func(w string) string {
			m := workerWholeRE.FindStringSubmatch(w)
			if id := workerPrefixID(m[1] + m[2] + m[3]); id != "" {
				return "process.env." + id + "\x00"
			}
			return w
		})
		if strings.Contains(s, "\x00") {
			// indexOf's answer compared: the comparison is the read's.
			parts := strings.Split(s, "\x00")
			for k := 1; k < len(parts); k++ {
				parts[k] = parts[k][len(workerIndexTailRE.FindString(parts[k])):]
			}
			s = strings.Join(parts, "")
		}
		out[i] = s
		changed = changed || s != t || merged[i]
	}
	return out, changed
}

// workerFlag is harnessDetect's worker rule over lines: the line that
// switches on an id (n) or on a name (a) it is kept in, -1 when none.
func workerFlag(lines []string) (j int, n, a string) {
	for i, t := range lines {
		for _, m := range envReadRE.FindAllStringSubmatch(t, -1) {
			n := strings.Join(m[1:], "")
			if !workerIDRE.MatchString(n) {
				continue
			}
			if workerSwitch(t, n, false) && !workerData(lines, n, false, -1) && !workerOnlyStarts(lines, i) {
				return i, n, ""
			}
			if a := workerAlias(t, n); a != "" && !workerData(lines, n, false, i) {
				if j := workerAliasSwitch(lines, i, a); j >= 0 && !workerOnlyStarts(lines, j) && !(quietNameRE.MatchString(a) && logCallRE.MatchString(lines[j])) {
					return j, n, a
				}
			}
		}
	}
	return -1, "", ""
}

// workerHidden reports the added line of JavaScript file f (lines) that
// switches on a worker id read in a hidden spelling, and what it reads;
// "" when none does, or when the plain rule already finds it (its
// answer is harnessDetect's own).
func workerHidden(f string, lines []string) (string, string) {
	if !jsSource(f) {
		return "", ""
	}
	// Every hidden spelling names process (process.env, its import).
	named := false
	for _, t := range lines {
		if strings.Contains(t, "process") {
			named = true
			break
		}
	}
	if !named {
		return "", ""
	}
	plain, changed := workerPlain(append([]string{}, lines...))
	if !changed {
		return "", ""
	}
	j, n, a := workerFlag(plain)
	if j < 0 {
		return "", ""
	}
	if k, _, _ := workerFlag(lines); k >= 0 {
		return "", ""
	}
	what := n + ", the runner's worker id, read in another spelling"
	if a != "" && !strings.HasPrefix(a, "__worker") {
		what = a + ", the runner's worker id " + n + " kept in a name"
	} else if a != "" {
		what = n + ", the runner's worker id, destructured from process.env"
	}
	return lines[j], what
}
