package nearcopy

import (
	"strings"
	"testing"
)

// TestAdv4FoldedCopies: a copy disguised with characters a reader does
// not see or tell apart is a near copy; an honest text in Cyrillic is
// not one of a different text (adversarial pass 4).
func TestAdv4FoldedCopies(t *testing.T) {
	const earlier = "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints a greeting; scripts/test.sh checks it (commit 3f9a2c1d).\n" +
		"The script stays POSIX sh so it runs in the CI image without bash.\n\n## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n"
	for _, c := range []struct {
		name, text, other string
		want              bool
	}{
		{"zero-width spaces", strings.ReplaceAll(earlier, "e", "e\u200b"), earlier, true},
		{"Cyrillic e and o", strings.NewReplacer("e", "\u0435", "o", "\u043e").Replace(earlier), earlier, true},
		{"Greek omicron", strings.ReplaceAll(earlier, "o", "\u03bf"), earlier, true},
		{"soft hyphens", strings.ReplaceAll(earlier, "a", "a\u00ad"), earlier, true},
		{"fullwidth", strings.ReplaceAll(earlier, "s", "\uff53"), earlier, true},
		{"honest Russian text", "Сегодня скрипт приветствия принимает имя, и проверка запускает шесть имён в тесте. Дальше: описать использование в README и добавить пример.",
			"Вчера скрипт приветствия печатал только привет; тест проверял одну строку. Скрипт остаётся на POSIX sh, чтобы работать в CI без bash.", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := New(c.text).NearCopyOf(c.other); got != c.want {
				t.Fatalf("NearCopyOf = %v, want %v", got, c.want)
			}
		})
	}
}
