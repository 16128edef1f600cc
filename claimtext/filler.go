package claimtext

import (
	"html"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/textfold"
	"github.com/sessiongate/sessiongate/mdtext"
)

// A template's placeholders replaced by a filler word are not filled in:
// the adversarial pass (issue 25) wrote "## Done\n\nTODO\n\n## Next\n\nTBD"
// for "Complete the handoff from the Handoff Template", and no_placeholders
// passed it (it looked only for the template's own "[...]" texts): COMPLETE,
// clean, verify passing. A section whose whole body is filler words counts
// as a placeholder left. "None" is an answer, not a filler, and a
// filler word inside a sentence ("Remove the TODO in greet.sh") is prose.

// fillerRE is one line of filler: TODO, TBD, TBA, FIXME, XXX, "...",
// "placeholder", "fill in", "lorem ipsum", "-", "?", as a list item or
// not, with trailing punctuation. Round 17 (issue 25 item 4) added the
// forms a template hands out that the check missed: the filler in angle
// or square brackets ("<fill in>", "[...]", "[TODO]"), emphasised
// ("_TODO_", "**TBD**", "`TBD`"), a whole line of "{{ name }}", and any of
// these after a short label ("Next steps: TBD", "- **Commit**: TBD"). On
// the team's 880 Markdown logs the section-of-filler count stays 8 (each
// a real unfilled section): no honest log holds them alone in a section.
//
// Round 18 (issue 25, t5) added what a lazy handoff still got through
// with: the filler in parentheses ("(TBD)"); a promise for later ("Coming
// soon", "To be added", "To be determined"); "N/A" or "Not applicable" as
// a section's whole body (it says the section does not apply without
// saying why: "None" stays an answer, "N/A: no code changed" prose); a
// pointer elsewhere only ("See above", "Same as above", "See below for
// details"); "T.B.D.", "To do", "Later", "Will add later", "NA", a filler
// said twice, a dash alone; and "⋯". Fullwidth, styled or lookalike letters spelling a
// filler are read as the letters (rendered folds them). On the team's 576
// Markdown session logs and handoffs none of these is a section's whole
// body: the flagged count stays 4.
//
// Round 19 (t8) added "Pending", "WIP", "Work in progress", "(will fill)",
// "Same as before" and pointers to an earlier session ("See previous
// session"). On 1,247 versions of the team's logs and handoffs from all
// of history the flagged count goes from 16 to 27: each new one a
// "Pending" left in a Lint Output or Commits section.
var fillerRE = sync.OnceValue(func() *regexp.Regexp {
	const word = `(?:todo|to[ -]do|t\.? ?b\.? ?d\.?|tba|tbc|fixme|xxx+|\.{2,}|…|⋯+|placeholder|fill (?:me |this |it )?in|lorem ipsum|` +
		`coming soon|to be (?:added|announced|completed|confirmed|decided|determined|documented|done|filled(?: in)?|updated|written)|` +
		`(?:will )?(?:add|fill(?: in)?|update|write|do|document) (?:this |it )?later|later|` +
		`n/a|n\.a\.?|na|not applicable|` +
		`pending|wip|work in progress|will fill(?: (?:this|it))?(?: in)?|` +
		`(?:same )?as before|(?:see|same as|as in) (?:the )?(?:previous|prior|last|earlier) (?:session|log|handoff|entry)(?: log)?|` +
		`(?:see|same as|as) (?:above|below|the (?:previous|earlier|next) section)(?: for (?:the )?(?:details|more(?: details)?))?)`
	// A word alone, bracketed, emphasised (its end stop inside the
	// emphasis too), or said twice ("TBD TBD").
	const one = `(?:` + word + `|<\s*` + word + `\s*>|\[\s*` + word + `\s*\]|\(\s*` + word + `\s*\)|[_*` + "`" + `]{1,2}` + word + `[.!]?[_*` + "`" + `]{1,2}|\{\{[^{}]*\}\})`
	const form = one + `(?:[\s,;/]+` + one + `)*`
	const label = `(?:\*\*[^*]{1,40}\*\*\s*:?|[A-Za-z][A-Za-z /-]{0,40}:)\s*`
	return regexp.MustCompile(`(?i)^(?:[-*+]\s+|\d+[.)]\s+|\[[ x]\]\s+)*(?:(?:` + label + `)?` + form + `|-|–|—|\?+)?[\s.:!?…\-–—↑↓←→]*$`)
})

// doneHeadingRE is a heading that asks what was done ("Work Done",
// "Changes Made", "Summary"): there "Nothing yet" or "No changes" alone
// answers nothing (round 19, t8). Elsewhere they can be an answer ("##
// Blockers: Nothing yet", "## Breaking changes: No changes").
var doneHeadingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:[\d.]+\s*)?(?:work(?: done| completed| log)?|done|completed(?: work)?|accomplish\w*|changes(?: made)?|what (?:was|i|we) (?:did|done|changed)|progress|outcomes?|summary|results?|` +
		// The same headings in French, German, Spanish, Italian and
		// Portuguese, as rendered reads them (accents folded): a
		// handoff's Done under "## Erledigt" was no Done section, so its
		// claim went unread (helper 357).
		`travail effectue|travaux effectues|realise|fait|termine|modifications|changements|bilan|resultats|` +
		`erledigt\w*|durchgefuhrte arbeit\w*|abgeschlossen|anderungen|zusammenfassung|ergebnis\w*|fortschritt|` +
		`hecho|trabajo realizado|realizado|cambios|resumen|resultados|completado|` +
		`fatto|lavoro svolto|modifiche|riepilogo|risultati|completato|` +
		`feito|trabalho realizado|alteracoes|mudancas|resumo|concluido|gedaan|afgerond|wijzigingen|samenvatting)\b|` +
		// Cyrillic and CJK letters are no word characters to \b; rendered
		// folds Cyrillic look-alikes to Latin, so the words are folded too.
		`^(?:` + textfold.Fold(`выполнено|сделано|изменения|итоги|完成|已完成|变更|总结|完了|実施内容|変更点|作業内容|まとめ|완료|변경 사항|작업 내용|요약`) + `)`)
})

// doneFillerRE is one line that says nothing was done yet, without why.
var doneFillerRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:[-*+]\s+|\d+[.)]\s+|\[[ x]\]\s+)*[_*` + "`" + `]{0,2}(?:nothing(?: (?:yet|done|so far))?|no (?:changes?|progress|work)(?: (?:made|done|yet))?(?: yet)?|not (?:started|done)(?: yet)?)[.!]?[_*` + "`" + `]{0,2}[\s.!]*$`)
})

// FillerSection returns the heading of the first section (below the
// title) whose body holds only filler lines, and the line of its first
// filler ("" when none).
func FillerSection(text string) (string, int) {
	heading, bodyLine, filler, fence, done := "", 0, false, false, false
	flush := func() (string, int) {
		if heading != "" && filler {
			return heading, bodyLine
		}
		return "", 0
	}
	for i, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(t, "##") {
			if h, n := flush(); h != "" {
				return h, n
			}
			heading, bodyLine, filler = strings.TrimSpace(strings.TrimLeft(t, "#")), 0, false
			done = doneHeadingRE().MatchString(rendered(heading))
			continue
		}
		if heading == "" || t == "" {
			continue
		}
		if !fence {
			if t = rendered(t); t == "" {
				continue // only a comment or invisible text: renders as nothing
			}
		}
		if fence || !(fillerRE().MatchString(t) || done && doneFillerRE().MatchString(t)) {
			heading = "" // the section says something: not filler
			continue
		}
		if bodyLine == 0 {
			bodyLine = i + 1
		}
		filler = true
	}
	return flush()
}

// invisibleRE is what a rendered line does not show: HTML comments and a
// few inline tags. Round 17 review (t9): "T\u200bBD", "TBD <!-- done -->",
// "> TBD", "&nbsp;TBD" and "<p>TBD</p>" render as the filler they hide.
var invisibleRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)<!--.*?-->|</?(?:p|span|div|b|i|em|strong|u|small|br)\b[^<>]*>`)
})

// inlineLinkRE is an inline link or image: `[text](destination)`.
var inlineLinkRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`!?\[([^\[\]]*)\]\([^()\s]*(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
})

// rendered is a Markdown line as a reader sees it: no comments, inline
// tags, entities, zero-width characters or blockquote marks, a link as its
// text (lazy pass 42, H12: `[.](scripts/greet.sh)` shows a dot, its words
// only in the destination; an image keeps its alt text, which a reader
// sees when the image fails); then folded
// (textfold.Fold: other invisible characters, fullwidth and styled letters,
// Cyrillic and Greek lookalikes), so "ＴＯＤＯ", "T\u2063BD" and a
// Cyrillic "ТОDО" read as the filler they show.
func rendered(t string) string {
	t = invisibleRE().ReplaceAllString(t, "")
	t = inlineLinkRE().ReplaceAllString(t, "$1")
	t = strings.Trim(strings.TrimSpace(mdtext.HidePhantoms(t)), "$")
	t = html.UnescapeString(t)
	t = strings.Map(func(r rune) rune {
		switch r {
		case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad':
			return -1
		}
		return r
	}, t)
	t = strings.TrimSpace(t)
	for strings.HasPrefix(t, ">") {
		t = strings.TrimSpace(t[1:])
	}
	return strings.TrimSpace(textfold.Fold(t))
}

// DoneSections returns the bodies of the sections (below the title) whose
// heading asks what was done ("Done", "Work Done", "Changes Made",
// "Summary"), fenced code left out (a fence of sentences only is read:
// prosefence.go), each with the line its body starts on.
func DoneSections(text string) (bodies []string, lines []int) {
	var cur *strings.Builder
	var fb fence
	level := 0 // the open Done heading's level
	for i, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if in, prose := fb.line(l); in {
			if cur != nil && len(prose) > 0 {
				// Sentences in a fence are read as text (prosefence.go).
				cur.WriteString(strings.Join(prose, "\n") + "\n")
				bodies[len(bodies)-1] = cur.String()
			}
			continue
		}
		if strings.HasPrefix(t, "##") {
			n := len(t) - len(strings.TrimLeft(t, "#"))
			if cur != nil && n > level {
				// A subsection of Done ("### Name argument") is Done: its
				// body was read as no section, and a claim under it went
				// unread (helper 349: nothing changed, COMPLETE, clean).
				continue
			}
			cur = nil
			if doneHeadingRE().MatchString(rendered(strings.TrimSpace(strings.TrimLeft(t, "#")))) {
				bodies = append(bodies, "")
				lines = append(lines, i+2)
				cur = &strings.Builder{}
				level = n
			}
			continue
		}
		if strings.HasPrefix(t, "# ") {
			cur = nil
			continue
		}
		if cur != nil {
			cur.WriteString(l + "\n")
			bodies[len(bodies)-1] = cur.String()
		}
	}
	return bodies, lines
}
