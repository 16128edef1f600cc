package committype

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestConventionalSubject: git's wrappers pass only around a conventional
// subject; typed by hand around anything ("fixup! wip", `Revert "stuff"`)
// they had passed every message (adversarial pass, issue 25).
func TestConventionalSubject(t *testing.T) {
	for _, tt := range []struct {
		subject string
		want    bool
	}{
		{"feat(scripts): greet takes a name", true},
		{"fix!: drop the flag", true},
		{"wip", false},
		{"fixup! feat(scripts): greet takes a name", true},
		{"squash! docs: usage", true},
		{"amend! fix: quote $1", true},
		{"fixup! fixup! feat: greet takes a name", true},
		{`Revert "docs: usage"`, true},
		{`Revert "Revert "docs: usage""`, true},
		{`Reapply "docs: usage"`, true},
		{"fixup! " + `Revert "docs: usage"`, true},
		{"fixup! wip", false},
		{"fixup! ", false},
		{`Revert "stuff"`, false},
		{`Revert "docs: usage`, false},
		{"squash! whatever lol", false},
		// config-conventional's types (issue 25: any word passed as a type).
		{"wip: stuff", false},
		{"wip(scripts): stuff", false},
		{"fixup! wip: stuff", false},
		{`Revert "wip: stuff"`, false},
		{"WIP: stuff", false},
		{"Feat: greet takes a name", false}, // type-case lower-case
		// A description of punctuation describes nothing (lazy pass 29:
		// "fix: ." passed the header's regexp); one word or number does.
		{"fix: .", false},
		{"feat(scripts): ...", false},
		{"docs: -", false},
		{"fixup! fix: .", false},
		{"fix: typo", true},
		{"chore(release): 1.2.3", true},
		{"docs: README", true},
		{"fix: é", false},
		{"fix: 修复", false},    // "fix: fix"
		{"fix: 修复登录超时", true}, // fix the login timeout
		{"feat: 更新内容", false}, // lazy pass 42, C11: "update content"
		{"fix: 超时", true},
		{"feat: implement the requested task", false}, // C3
		{"chore: session 2026-08-20 work", false},     // C4
		{"feat: the", false},
		{"feat: misc improvements", false}, // helper-285's F2
		{"feat: 新增功能", false},              // F3: "add feature"
		{"feat: implement retry with backoff", true},
		{"fix: handle the empty input", true},
		{"feat: add the name argument", true},
		{"fix: écrit", true},
		{"update: things", false},
		{"feat:no space", false},
		{"feat: ", false},
		// Honest twins: every type, scopes, !, git's revert and commitlint's own.
		{"build: pin go 1.24", true},
		{"chore(deps): bump x", true},
		// A description of fillers names nothing that changed (round 30,
		// lazy pass 29's open row "feat: x"); one word that is not one,
		// or two words with one that is not, passes.
		{"feat: x", false},
		{"fix: .x", false},
		{"chore: wip", false},
		{"feat: update", false},
		{"fix: fix", false},
		{"feat: changes", false},
		{"chore: stuff", false},
		{"chore: misc", false},
		{"feat: Update stuff", false},
		{"fix: minor changes...", false},
		{"fixup! feat: x", false},
		{`Revert "feat: wip"`, false},
		{"chore: wip 2", false},
		// Folded (re-check 42, F1): fullwidth, split by a zero-width
		// space, Cyrillic look-alikes.
		{"feat: ｗｉｐ", false},
		{"feat: w\u200bip", false},
		{"feat: wір", false},
		{"feat: ｍｉｓｃ ｃｈａｎｇｅｓ", false},
		{"feat: ｇｒｅｅｔ takes a name", true},
		// Pass 45 (helper-286): F1, F5, F6.
		{"feat: wip2", false},
		{"feat: tweaked", false},
		{"feat: w ip", false},
		{"fix: minor tweaks and adjustments", false},
		{"fix: ipv6 addresses", true},
		{"feat: ui", true},
		{"feat: x y", false},
		{"feat: ɯip", false},
		// Pass 46 (helper-287).
		{"feat: 5wip", false},
		{"feat: fixup", false},
		{"feat: improved", false},
		{"feat: stuff 1a", false},
		{"feat: xxx", false},
		// Pass 45's F4: fillers in other languages, and honest twins
		// that name what changed in the same words.
		{"feat: обновление", false},
		{"fix: правки", false},
		{"fix: исправление ошибок", true}, // "fix errors": ошибок is not a filler
		{"fix: обновление зависимостей", true},
		{"feat: actualización de código", false},
		{"fix: arreglo del parser", true},
		{"chore: mise à jour", false},
		{"docs: mise à jour du README", true},
		{"fix: Änderungen", false},
		{"fix: Änderungen am Parser", true},
		{"chore: atualização dos arquivos", false},
		{"fix: modifiche varie", false},
		{"feat: 修正", false},
		{"feat: ファイルの更新", false},
		{"fix: ログインの修正", true},
		{"fix: 코드 수정", false},
		{"fix: 로그인 수정", true},
		{"feat(i18n): de", true},
		{"feat(i18n): en", true},
		{"feat: implement #12", true},
		{"chore(release): update to 1.2.3", true},
		{"fix: 404 on empty name", true},
		{"feat: add ll alias", true},
		{"feat: \uab83ip", false},
		{"fix: ΔT drift in the clock", true},
		{"feat: 日本語の名前", true},
		{"fix: update 3 stuff", false},
		{"fix: 404 on empty name", true},
		{"chore: 2026", true},
		{"fix: typo in README", true},
		{"docs: add ADR-012", true},
		{"fix: null check", true},
		{"chore: update deps", true},
		{"feat: x86 builds", true},
		{"refactor: rename", true},
		{"docs: changelog", true},
		{"ci: cache modules", true},
		{"docs: usage", true},
		{"feat(api)!: drop v1", true},
		{"fix(scripts/greet): quote $1", true},
		{"perf: hash once", true},
		{"refactor!: rename the flag", true},
		{"revert: feat: greet takes a name", true},
		{"style: gofmt", true},
		{"test(session): hints followed", true},
		{`Revert "feat(scripts): greet takes a name"`, true},
	} {
		if got := Unconventional(tt.subject, configConventionalTypes); (got == "") != tt.want {
			t.Errorf("Unconventional(%q) = %q, want ok=%v", tt.subject, got, tt.want)
		}
	}
}

// TestConventionalTypes: a protocol that lists its types is checked
// against its list; one that does not, against config-conventional's.
func TestConventionalTypes(t *testing.T) {
	for _, tt := range []struct {
		line    string
		subject string
		want    bool
	}{
		{"- Use conventional commits.", "wip: greet", false},
		{"- Use conventional commits.", "chore: greet", true},
		{"- Use conventional commits (feat, fix, docs).", "chore: greet", false},
		{"- Use conventional commits (feat, fix, docs).", "docs: greet", true},
		{"- Use conventional commits (`feat:`, `fix:`, `wip:`).", "wip: greet", true},
		{"- Use conventional commits (`feat:`, `fix:`, `wip:`).", "docs: greet", false},
		{"- Use conventional commits (see the guide).", "docs: greet", true},
	} {
		spec, err := protocolspec.Parse("P.md", []byte("# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n- The agent MUST run `git status`.\n\n## Session End\n\n### Phase 9: Git Operations (REQUIRED)\n\n"+tt.line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		p := &spec.Phases[len(spec.Phases)-1]
		types, whose := AllowedTypes(p)
		if got := Unconventional(tt.subject, types); (got == "") != tt.want {
			t.Errorf("%s: %q -> %q (types %s: %s), want ok=%v", tt.line, tt.subject, got, whose, strings.Join(types, ","), tt.want)
		}
	}
}

// TestFillerRealSubjects: no honest subject of a real team's history is
// judged a description of fillers. SESSIONGATE_GIT_LOG names a clone of
// one (the rule was measured on rjmurillo/ai-agents: 2,624 commits, no
// description of fillers only, none shorter than three words); without
// it, this repository's own history.
func TestFillerRealSubjects(t *testing.T) {
	dir := os.Getenv("SESSIONGATE_GIT_LOG")
	if dir == "" {
		dir = ".."
	}
	out, err := exec.Command("git", "-C", dir, "log", "--no-merges", "--format=%s").Output()
	if err != nil {
		t.Skipf("no history to read at %s: %v", dir, err)
	}
	n, conventional := 0, 0
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		n++
		s := sc.Text()
		m := conventionalRE().FindStringSubmatch(s)
		if m == nil {
			continue
		}
		conventional++
		if why := Unconventional(s, configConventionalTypes); strings.Contains(why, "says nothing") {
			t.Errorf("honest subject judged fillers only: %q", s)
		}
	}
	t.Logf("%d subjects, %d conventional: none of fillers only", n, conventional)
}
