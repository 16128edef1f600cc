package committype

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/sessiongate/sessiongate/internal/textfold"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// "Use conventional commits" is read as the teams who say it check it:
// commitlint's @commitlint/config-conventional. The Conventional Commits
// 1.0.0 spec allows any type beyond feat and fix, so the type word alone
// decided nothing and `wip: stuff` passed (issue 25); config-conventional
// takes the eleven types below, lower-case, unless the protocol lists its
// own.

// configConventionalTypes is config-conventional's type-enum.
var configConventionalTypes = []string{"build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test"}

// conventionalRE is the Conventional Commits 1.0.0 header: type, optional
// (scope), optional !, ": ", description.
var conventionalRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9-]*)(\([^()\r\n]+\))?!?: \S`)
})

// protocolTypesRE finds a type list a protocol gives beside "conventional
// commits": "(feat, fix, docs)", "(`feat:`, `fix:`)" (the requirement's
// text has lost the backticks) or backticked words.
var protocolTypesRE = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`(?i)\bconventional[ -]commits?\b`),
		regexp.MustCompile(`\(([a-z]+:?(?:\s*[,/|]\s*(?:or\s+|and\s+)?[a-z]+:?)+)\)`),
		regexp.MustCompile("`([a-z]+)(?:\\([^`]*\\))?!?:?`"),
	}
})

// AllowedTypes is the type list a phase's conventional-commits
// requirement gives (two or more types), else config-conventional's; whose
// says which, for the gate's message.
func AllowedTypes(p *protocolspec.Phase) (types []string, whose string) {
	re := protocolTypesRE()
	if p != nil {
		for _, r := range p.Requirements {
			if !re[0].MatchString(r.Text) {
				continue
			}
			var found []string
			if m := re[1].FindStringSubmatch(r.Text); m != nil {
				for _, w := range strings.FieldsFunc(m[1], func(c rune) bool { return c == ',' || c == '/' || c == '|' || c == ' ' || c == ':' }) {
					if w != "or" && w != "and" {
						found = append(found, w)
					}
				}
			}
			for _, m := range re[2].FindAllStringSubmatch(r.Text, -1) {
				found = append(found, m[1])
			}
			slices.Sort(found)
			if found = slices.Compact(found); len(found) >= 2 {
				return found, "the protocol's list"
			}
		}
	}
	return configConventionalTypes, "config-conventional's"
}

// Unconventional says why a subject does not follow the convention
// ("" when it does). git's own wrappers (fixup!/squash!/amend! of `git
// commit --fixup`, `Revert "..."`/`Reapply "..."` of git revert) pass only
// around a subject that does: they wrap the commit they name, and a bare
// "fixup! wip" or `Revert "stuff"` typed by hand had passed any message.
// Merge commits are not read (the caller lists none).
func Unconventional(s string, types []string) string {
	for range 16 {
		if rest, ok := cutAny(s, "fixup! ", "squash! ", "amend! "); ok {
			s = strings.TrimSpace(rest)
			continue
		}
		if rest, ok := cutAny(s, `Revert "`, `Reapply "`); ok && strings.HasSuffix(rest, `"`) {
			s = rest[:len(rest)-1]
			continue
		}
		m := conventionalRE().FindStringSubmatch(s)
		switch {
		case m == nil:
			return "no type(scope): description header"
		case !slices.Contains(types, m[1]) && slices.Contains(types, strings.ToLower(m[1])):
			return "type " + m[1] + " is not lower-case"
		case !slices.Contains(types, m[1]):
			return "type " + m[1] + " is not one of them"
		case !strings.ContainsFunc(description(s, m), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }):
			// "fix: ." passed the header's regexp (lazy pass 29): the
			// description must say something, if only one word.
			return "the description holds no word"
		case fillerOnly(description(s, m)):
			// "feat: x", "chore: wip", "feat: update" (lazy pass 29,
			// round 30): a header around a word that says nothing.
			return fillerReason + " (" + strconv.Quote(strings.TrimSpace(description(s, m))) + "): name what changed"
		}
		return ""
	}
	return "wrapped more than 16 times"
}

// fillerReason starts Unconventional's answer for a description of
// fillers only.
const fillerReason = "the description says nothing"

// FillerStyle reports whether s is a `style:` header whose only fault is
// a description of fillers ("style: code cleanup", "style: formatting
// fixes"). A commit that changes only whitespace and layout has nothing
// else to name (lazy pass 42, HN22: an honest cleanup commit was refused),
// so the caller excuses it when the commit's diff, whitespace ignored, is
// empty; any other change still has to be named.
func FillerStyle(s string, types []string) bool {
	return Type(s) == "style" && strings.HasPrefix(Unconventional(s, types), fillerReason)
}

// description is a matched subject's text after "type(scope)!: ".
func description(s string, m []string) string {
	_, d, _ := strings.Cut(s[len(m[1])+len(m[2]):], ": ")
	return d
}

// cutAny cuts the first of prefixes s starts with.
func cutAny(s string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return s, false
}

// fillers are the words a lazy description is made of: a placeholder
// letter, "wip", "update", "changes", "stuff". A description all of whose
// words are fillers ("feat: x", "chore: wip", "fix: minor changes") names
// nothing that changed. Measured on the real team's history
// (rjmurillo/ai-agents, 2,624 commits, all but the merges conventional):
// no description is shorter than three words, and none is fillers only
// (TestFillerRealSubjects reads a history when SESSIONGATE_GIT_LOG names
// one). One word that is not a filler ("fix: typo", "style: gofmt",
// "chore(release): 1.2.3") passes. Round 42 added the words of a
// description that names the request, not the change ("implement the
// requested task", "session 2026-08-20 work"), neutral words and Chinese
// fillers: measured again on the same history (2,563 conventional
// subjects) and on this repository's (1,544), none is judged fillers only.
var fillers = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`wip update updates updated updating change changes changed stuff
		fix fixes fixed fixing misc minor small tmp temp todo tbd asdf foo bar baz qwerty test
		things thing work works save commit commits edit edits tweak tweaks more some various
		done it this that code files file cleanup again new
		implement implements implemented implementing implementation add adds added adding
		request requests requested task tasks session sessions content contents requirement
		requirements feature features item items issue issues bug bugs problem problems
		complete completed finish finished stuff progress job changeset patch improvement improvements
		enhancement enhancements tweaked tweaking modify modifies modified modifying modification
		modifications adjust adjusts adjusted adjusting adjustment adjustments cleaned cleaning cleanups
		tidy tidied tidying polish polished polishing rework reworked reworking revise revised revision
		revisions refactor refactored refactoring fixup fixups improve improves improved improving`) {
		m[w] = true
	}
	for _, w := range strings.Fields(otherFillers) {
		m[textfold.Fold(w)] = true
	}
	return m
})

// otherFillers are the fillers and neutral words of the languages most
// commit messages are written in after English and Chinese: Spanish,
// Portuguese, French, German, Italian, Russian, Ukrainian, Korean
// ("обновление", update: lazy pass 45's F4), with their neutral words
// (the two-letter ones that are also language codes in codeNeutral). Kept as written here and folded (textfold.Fold, as a
// description is) when first read: accents come off and Cyrillic letters
// that look Latin turn Latin.
const otherFillers = `actualizar actualizado actualizacion actualizaciones cambio cambios arreglo arreglos arreglar
	correccion correcciones varios cosas trabajo codigo archivo archivos mejoras mejora nuevo
	atualizar atualizado atualizacao atualizacoes mudanca mudancas alteracao alteracoes correcao correcoes
	ajuste ajustes coisas arquivo arquivos
	mise jour modification modifications correctif correctifs changement changements divers trucs
	fichier fichiers travail
	aktualisierung aktualisiert anderung anderungen kleinigkeiten diverses sachen datei dateien arbeit
	verbesserung verbesserungen korrektur
	aggiornamento aggiornamenti modifica modifiche correzione correzioni vari varie cose lavoro
	обновление обновления обновил обновлено исправление исправления исправил правки правка изменения
	изменение разное мелочи код файл файлы работа доработка доработки фикс
	оновлення виправлення зміни зміна правки
	업데이트 수정 변경 변경사항 파일 코드 작업 내용 기타 추가
	del las los y e o do dos das du des le les au der die und von mit im di il per
	и в на с по к для`

// codeNeutral are neutral words that are also language codes: beside
// fillers they say nothing (`actualización de código`), alone they name a
// locale (`feat(i18n): de`).
var codeNeutral = map[string]bool{"de": true, "la": true, "el": true, "en": true, "da": true, "et": true}

// neutral words say nothing and take nothing away: beside fillers they
// leave a filler description ("implement the requested task": lazy pass
// 42's C3; "session 2026-08-20 work": C4), and alone they are no
// description either.
var neutral = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the an of to for as per and or with on in at by from into its my our all
		was were is are be been as asked per what`) {
		m[w] = true
	}
	return m
})

// hanFillers are the Chinese morphemes of a lazy description ("更新内容",
// update content: lazy pass 42's C11). Han text has no spaces, so a word
// of Han characters is filler when nothing is left of it once these and
// the particles 的 and 了 are taken out.
var hanFillers = []string{"更新", "内容", "修改", "修复", "代码", "文件", "提交", "变更", "改动", "一些", "工作",
	"任务", "功能", "实现", "完成", "问题", "调整", "临时", "测试", "其他", "杂项", "新增", "添加", "优化", "的", "了",
	// Japanese: fix, change, handling, work, addition, various, file, code,
	// update, and the particles の and を (F4).
	"修正", "変更", "対応", "作業", "追加", "色々", "諸々", "ファイル", "コード", "アップデート", "いろいろ", "の", "を"}

// hanFiller reports whether w, a word holding Han characters or Japanese
// kana, is made of hanFillers only.
func hanFiller(w string) bool {
	if !strings.ContainsFunc(w, func(r rune) bool { return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) }) {
		return false
	}
	for _, f := range hanFillers {
		w = strings.ReplaceAll(w, f, "")
	}
	return w == ""
}

// namedRefRE is an issue or pull request reference, or a dotted version.
var namedRefRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^\w])(?:[\w.-]+/[\w.-]+)?#\d+\b|\bv?\d+\.\d+(?:\.\d+)*\b`)
})

// mixedFiller reports whether w mixes Latin letters with letters of
// another script (Cherokee, Greek, Cyrillic the fold left) and, each of
// those read as any letter, spells a filler: `ꮃip` (U+AB83, a Cherokee
// letter that looks like w: pass 45's F3). A Latin word stays itself.
func mixedFiller(w string) bool {
	latin, other := false, false
	for _, r := range w {
		switch {
		case unicode.Is(unicode.Latin, r):
			latin = true
		case unicode.IsLetter(r):
			other = true
		}
	}
	if !latin || !other {
		return false
	}
	rs := []rune(w)
	for f := range fillers() {
		fr := []rune(f)
		// Only the Latin fillers: a folded Cyrillic one is itself mixed.
		if len(fr) != len(rs) || strings.ContainsFunc(f, func(r rune) bool { return r >= 0x80 }) {
			continue
		}
		same := true
		for i, r := range rs {
			if unicode.Is(unicode.Latin, r) && r != fr[i] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// fillerOnly reports whether every word of the description d (runs of
// letters and digits, lower-cased) is a filler or a single Latin letter
// (one CJK character can be a word), once folded (textfold.Fold).
func fillerOnly(d string) bool {
	// An issue reference (`implement #12`) or a version (`update to
	// 1.2.3`) names what changed (pass 46's HF1, HF2).
	if namedRefRE().MatchString(d) {
		return false
	}
	// Folded first: `feat: ｗｉｐ` in fullwidth letters, `w\u200bip` split
	// by a zero-width space or `wір` in Cyrillic look like the filler they
	// are (re-check 42, F1).
	words := strings.FieldsFunc(textfold.Fold(d), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return false // no word at all: the caller's "holds no word"
	}
	if fillerWords(words) {
		return true
	}
	// A filler split by spaces (`w ip`: pass 45's F6) reads as one word:
	// runs of one- and two-letter fragments joined.
	var joined []string
	for i, w := range words {
		if i > 0 && len([]rune(w)) <= 2 && len([]rune(words[i-1])) <= 2 {
			joined[len(joined)-1] += w
			continue
		}
		joined = append(joined, w)
	}
	return len(joined) < len(words) && fillerWords(joined)
}

// fillerWords reports whether every word is a filler, a neutral word, a
// Han filler, a single Latin letter or a number, and one is not a number.
func fillerWords(words []string) bool {
	said := false // a filler, lone letter or neutral word among the words
	for _, w := range words {
		if strings.TrimFunc(w, unicode.IsDigit) == "" || codeNeutral[w] {
			// A number beside fillers says nothing either (`wip 2`: lazy
			// pass 42's C12); numbers alone name a version (`1.2.3`), as
			// a language code alone names a locale.
			continue
		}
		// A number glued to a filler (`wip2`, `5wip`: passes 45 and 46) is
		// the filler, and a letter with a digit (`1a`) a lone letter.
		if t := strings.TrimFunc(w, unicode.IsDigit); fillers()[t] || len([]rune(t)) == 1 {
			w = t
		}
		// One letter repeated (`xxx`, `aaaa`) is a placeholder.
		if r := []rune(w); len(r) > 1 && unicode.IsLetter(r[0]) && strings.Count(w, string(r[0])) == len(r) {
			said = true
			continue
		}
		if mixedFiller(w) {
			said = true
			continue
		}
		if r := []rune(w); !fillers()[w] && !neutral()[w] && !hanFiller(w) && (len(r) != 1 || !unicode.Is(unicode.Latin, r[0])) {
			return false
		}
		said = true
	}
	return said
}
