package testrun

import (
	"regexp"
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
