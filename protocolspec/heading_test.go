package protocolspec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestCompareNumbers(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1", "2", -1}, {"2", "1.5", 1}, {"1.5", "2", -1}, {"2", "2", 0}, {"2", "2.0", 0},
		{"2.9", "2.10", -1}, {"02", "2", 0}, {"2a", "2", 1}, {"2a", "2B", -1}, {"10", "9", 1},
		{"99999999999999999999999", "1", 1},
	}
	for _, tt := range tests {
		if got := compareNumbers(tt.a, tt.b); got != tt.want {
			t.Errorf("compareNumbers(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestUpperSnake(t *testing.T) {
	tests := map[string]string{
		"QA Validation":              "QA_VALIDATION",
		"Session Log Creation":       "SESSION_LOG_CREATION",
		"  git-state / verification": "GIT_STATE_VERIFICATION",
		"Übergabe prüfen":            "ÜBERGABE_PRÜFEN",
		"Phase 2.5 ok!":              "PHASE_2_5_OK",
		"!!!":                        "",
	}
	for in, want := range tests {
		if got := upperSnake(in); got != want {
			t.Errorf("upperSnake(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSectionKind(t *testing.T) {
	tests := map[string]string{
		"Session Start Protocol":                SectionStart,
		"SESSION END":                           SectionEnd,
		"session end (before closing)":          SectionEnd,
		"Between Session End and Session Start": SectionEnd,
		"Sessions":                              "",
		"Session Log Template":                  "",
	}
	for in, want := range tests {
		if got := sectionKind(in); got != want {
			t.Errorf("sectionKind(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{"Session Start Checklist": true, "Session End Template": true, "Session Start Protocol": false} {
		if got := isTemplateHolder(in); got != want {
			t.Errorf("isTemplateHolder(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestNumberKey(t *testing.T) {
	// Components compare as integers (like versions): 1.05 is 1.5, 1.50 is not.
	same := [][2]string{{"2", "2.0"}, {"02", "2"}, {"1.5", "1.05"}, {"2A", "2a"}, {"0", "0.0.0"}}
	for _, p := range same {
		if numberKey(p[0]) != numberKey(p[1]) {
			t.Errorf("numberKey(%q) = %q, numberKey(%q) = %q; want equal", p[0], numberKey(p[0]), p[1], numberKey(p[1]))
		}
	}
	differ := [][2]string{{"1.5", "1.50"}, {"2", "20"}, {"2", "2a"}, {"2.10", "2.1"}}
	for _, p := range differ {
		if numberKey(p[0]) == numberKey(p[1]) {
			t.Errorf("numberKey(%q) == numberKey(%q) = %q; want different", p[0], p[1], numberKey(p[0]))
		}
	}
}

// matchPhase and phaseLike match what the regexps they replaced match:
// on the real protocols' lines, on edge cases, and with every rune of the
// basic plane in place of each letter of "phase" (case folding).
func TestPhaseMatchersMatchRegexps(t *testing.T) {
	phaseRE := regexp.MustCompile(`^(?i:phase)\s+([0-9]+(?:\.[0-9]+)*[A-Za-z]?)\s*:\s*(.*)$`)
	likeRE := regexp.MustCompile(`^(?i:phase)\s+[0-9]`)
	check := func(l string) {
		t.Helper()
		num, rest, ok := matchPhase(l)
		m := phaseRE.FindStringSubmatch(l)
		if ok != (m != nil) || ok && (num != m[1] || rest != m[2]) {
			t.Fatalf("matchPhase(%q) = %q, %q, %v; the regexp says %q", l, num, rest, ok, m)
		}
		if got, want := phaseLike(l), likeRE.MatchString(l); got != want {
			t.Fatalf("phaseLike(%q) = %v, the regexp says %v", l, got, want)
		}
	}
	lines := []string{"", "Phase", "Phase 1", "Phase 1:", "Phase 1: x", "phase\t2.5a : y", "PHASE 10.2.3: z (BLOCKING)", "Phase 1.: x", "Phase 1a.2: x",
		"Phase 1:\nx", "Phase 1: x\ny", "Phase\n1:x", "Phase1: x", "Phase 1 - x", "Phaſe 3: x", "PHAſE 3 x", "Phase 3ab: x", "Phase 3 a: x",
		"Phase 2:\t", "Phase 2: \xff", "Phase 12", "Phases 1: x", "Phase: 1", "Phase 1 : x"}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "*.md"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			lines = append(lines, l, strings.TrimLeft(l, "# "))
		}
	}
	for _, l := range lines {
		check(l)
	}
	for i := range len("phase") {
		for r := rune(0); r < 0x10000; r++ {
			check("phase"[:i] + string(r) + "phase"[i+1:] + " 1: x")
		}
	}
}

// lowerIndex finds what strings.Index finds in the lower-cased text.
func TestLowerIndex(t *testing.T) {
	texts := []string{"", "Session Start", "SESSION END Checklist", "x session  start", "Session Start\u212a", "ſession start", "İ Session End",
		"Session Log Template", "TEMPLATES", "templat", "a Session End then Session Start"}
	for _, tx := range texts {
		for _, sub := range []string{"session start", "session end", "checklist", "template"} {
			if got, want := lowerIndex(tx, sub), strings.Index(strings.ToLower(tx), sub); got != want {
				t.Errorf("lowerIndex(%q, %q) = %d, want %d", tx, sub, got, want)
			}
		}
	}
}

// compareNumbersReference is the first version of compareNumbers, which
// split every number; numberKey's reference is splitNumberKey, what it did
// for every number before it skipped those already in key form.
func compareNumbersReference(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		x, y := "0", "0"
		if i < len(as) {
			x = as[i]
		}
		if i < len(bs) {
			y = bs[i]
		}
		if c := compareComponent(x, y); c != 0 {
			return c
		}
	}
	return 0
}

var numberSamples = []string{"", "0", "00", "1", "01", "1.5", "1.05", "1.50", "2a", "2A", "1.0", "1.0.0", "0.0", ".", "1.", ".1", "1..2",
	"a", "2ab", "2a.3", "10.0a", "1.5.0", "2É", "0a", "99999999999999999999999"}

func TestNumbersMatchReference(t *testing.T) {
	for _, a := range numberSamples {
		if got, want := numberKey(a), splitNumberKey(a); got != want {
			t.Errorf("numberKey(%q) = %q, want %q", a, got, want)
		}
		for _, b := range numberSamples {
			if got, want := compareNumbers(a, b), compareNumbersReference(a, b); got != want {
				t.Errorf("compareNumbers(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func FuzzNumbers(f *testing.F) {
	for _, a := range numberSamples {
		f.Add(a, "2.5")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := numberKey(a), splitNumberKey(a); got != want {
			t.Fatalf("numberKey(%q) = %q, want %q", a, got, want)
		}
		if got, want := compareNumbers(a, b), compareNumbersReference(a, b); got != want {
			t.Fatalf("compareNumbers(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

func FuzzLowerIndex(f *testing.F) {
	f.Add("a Session End then Session Start", "session start")
	f.Add("ſession start", "session start")
	f.Fuzz(func(t *testing.T, text, sub string) {
		if sub == "" || sub != strings.ToLower(sub) || !isASCIIText(sub) {
			return // lowerIndex takes a lower-case ASCII sub
		}
		if got, want := lowerIndex(text, sub), strings.Index(strings.ToLower(text), sub); got != want {
			t.Fatalf("lowerIndex(%q, %q) = %d, want %d", text, sub, got, want)
		}
	})
}
