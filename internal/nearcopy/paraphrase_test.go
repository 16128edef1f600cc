package nearcopy

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// paraphrase is what a lazy agent asked to "reword the last handoff" does
// to it, deterministically: ids, dates and numbers changed, every k-th word
// of four letters or more swapped for a word the text does not hold, a
// word added after every ninth and every thirteenth dropped (sentence
// lengths change), neighbouring lines and paragraphs swapped, and prose
// re-wrapped at 60 columns.
func paraphrase(text string, k int) string {
	text = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '0' + (r-'0'+3)%10
		}
		return r
	}, text)
	var paras [][]string
	var cur []string
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			if len(cur) > 0 {
				paras = append(paras, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		paras = append(paras, cur)
	}
	n, long := 0, 0
	for pi, p := range paras {
		for li, l := range p {
			var out []string
			for _, w := range strings.Fields(l) {
				n++
				if n%13 == 0 {
					continue
				}
				if len(w) >= 4 && isWord(w) {
					if long++; long%k == 0 {
						w = reverse(w) + "q"
					}
				}
				out = append(out, w)
				if n%9 == 0 {
					out = append(out, "indeed")
				}
			}
			p[li] = strings.Join(out, " ")
		}
		for i := 0; i+1 < len(p); i += 2 {
			p[i], p[i+1] = p[i+1], p[i]
		}
		prose := true
		for _, l := range p {
			if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "|") || strings.HasPrefix(l, "```") {
				prose = false
			}
		}
		if prose {
			paras[pi] = wrap(strings.Join(p, " "), 60)
		}
	}
	for i := 0; i+1 < len(paras); i += 2 {
		paras[i], paras[i+1] = paras[i+1], paras[i]
	}
	var b strings.Builder
	for _, p := range paras {
		b.WriteString(strings.Join(p, "\n") + "\n\n")
	}
	return b.String()
}

func isWord(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func wrap(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// realLogs reads the real team's session logs: the two in
// ../shared/fixtures, or every .md of SESSIONGATE_LOGS_DIR when set (the
// team's .agents/sessions folders, for the measurement). Skips without
// them, fails under CI=true.
func realLogs(t testing.TB) []string {
	t.Helper()
	if dir := os.Getenv("SESSIONGATE_LOGS_DIR"); dir != "" {
		names, err := filepath.Glob(filepath.Join(dir, "*.md"))
		if err != nil || len(names) == 0 {
			t.Fatalf("SESSIONGATE_LOGS_DIR=%s holds no .md logs (%v)", dir, err)
		}
		sort.Strings(names)
		return names
	}
	dir := os.Getenv("SESSIONGATE_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "fixtures")
	}
	names := []string{
		filepath.Join(dir, "ai-agents", "session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md"),
		filepath.Join(dir, "ai-agents", "session-log_noncanonical-md_2025-12-27-session-92_at-4a00fca3b.md"),
	}
	for _, n := range names {
		if _, err := os.Stat(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the real session logs are required under CI=true: %v", err)
			}
			t.Skipf("real session logs not found (%v): set SESSIONGATE_FIXTURES", err)
		}
	}
	return names
}

// TestParaphrasedRealLogs: consecutive real session logs of one team are
// no near copy of each other; each of them paraphrased lightly is.
func TestParaphrasedRealLogs(t *testing.T) {
	names := realLogs(t)
	texts := make([]string, len(names))
	preps := make([]*prepared, len(names))
	for i, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		texts[i], preps[i] = string(b), prepare(string(b))
	}
	const neighbours = 15
	pairs, flagged, maxC := 0, 0, 0.0
	var worst string
	for i := range texts {
		for j := i + 1; j < len(texts) && j <= i+neighbours; j++ {
			for k, c := range [][2]int{{i, j}, {j, i}} {
				if k == 1 && len(names) > 2 {
					break // the score is symmetric; Is, on the fixtures, is not
				}
				pairs++
				s, h := paraphraseScore(preps[c[0]], preps[c[1]])
				if m := s; m > maxC {
					maxC, worst = m, fmt.Sprintf("%s of %s", filepath.Base(names[c[0]]), filepath.Base(names[c[1]]))
				}
				// The whole check on the fixture pair; on the measured
				// folder the new test alone (the older ones were measured
				// when they were added, reworded.go).
				if len(names) <= 2 && Is(texts[c[0]], texts[c[1]]) || len(names) > 2 && paraphrasedScore(s, h) {
					flagged++
					t.Errorf("honest %s judged a near copy of %s (content words %.2f, pairs %.2f)", filepath.Base(names[c[0]]), filepath.Base(names[c[1]]), s, h)
				}
			}
		}
	}
	t.Logf("%d honest pairs of neighbouring logs: %d flagged, highest content-word share %.2f (%s)", pairs, flagged, maxC, worst)
	for _, k := range []int{5, 4, 3} {
		caught, judged, low := 0, 0, 1.0
		for i, x := range texts {
			p := paraphrase(x, k)
			c, s := paraphraseScore(prepare(p), preps[i])
			if c == 0 && s == 0 {
				continue // too short to judge
			}
			judged++
			low = min(low, c)
			if Paraphrased(p, x) || len(names) <= 2 && Is(p, x) {
				caught++
			} else if len(names) <= 2 && k >= 4 {
				t.Errorf("%s paraphrased (every %dth word swapped) not judged a copy: content words %.2f, pairs %.2f", filepath.Base(names[i]), k, c, s)
			}
		}
		t.Logf("paraphrased, every %dth word swapped: %d of %d caught (lowest content-word share %.2f)", k, caught, judged, low)
	}
}

// BenchmarkNearCopyRealLog is the handoff check on the largest real log of
// ../shared/fixtures (session 3364, JSON, 5.5 kB) against session 91, an
// honest pair: no early test decides it, so every comparison runs.
func BenchmarkNearCopyRealLog(b *testing.B) {
	dir := os.Getenv("SESSIONGATE_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "fixtures")
	}
	x, err1 := os.ReadFile(filepath.Join(dir, "ai-agents", "session-log_json_2026-07-26-session-3364_at-HEAD-70241a006.json"))
	y, err2 := os.ReadFile(filepath.Join(dir, "ai-agents", "session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md"))
	if err1 != nil || err2 != nil {
		if os.Getenv("CI") == "true" {
			b.Fatalf("the real session logs are required under CI=true: %v %v", err1, err2)
		}
		b.Skipf("real session logs not found (%v %v): set SESSIONGATE_FIXTURES", err1, err2)
	}
	for b.Loop() {
		if New(string(x)).NearCopyOf(string(y)) {
			b.Fatal("an honest pair judged a near copy")
		}
	}
}
