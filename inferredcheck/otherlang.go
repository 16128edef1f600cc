package inferredcheck

import (
	"regexp"
	"strings"
	"sync"
)

// The claim rules of claimednowork.go read English. Helper 357 ended helper 346's
// laziest session (nothing changed, one commit holding the handoff)
// COMPLETE, clean, verify OK with its claim in French ("Ajouté l'argument
// de nom au script de salutation"), German ("Das Namensargument wurde ...
// hinzugefügt") or Spanish. Here a past verb of a change in French,
// German, Spanish, Italian, Portuguese, Dutch, Russian, Chinese, Japanese
// or Korean claims on its own, as madeRE does
// under an objective with no specific word: the objective's English words
// seldom appear in another language's clause ("Namensargument"). A denial,
// the session's own notes or work elsewhere in the clause excuse it.

// wordStart and wordEnd bound a word whose letters may be accented: Go's
// \b is ASCII, so `\bajouté\b` never matches before a space.
const (
	wordStart = `(?:^|[^\p{L}\p{N}_])`
	wordEnd   = `(?:$|[^\p{L}\p{N}_])`
)

// otherMadeRE is a past verb (or French noun "ajout") of a change made.
var otherMadeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + wordStart + `(?:` +
		`ajout|ajoutée?s?|corrigée?s?|implémentée?s?|modifiée?s?|créée?s?|écrite?s?|réécrite?s?|mise?s?\s+à\s+jour|changée?s?|intégrée?s?|livrée?s?|remplacée?s?|étendue?s?|terminée?s?|` +
		`hinzugefügt|fügte|ergänzt|behoben|korrigiert|implementiert|umgesetzt|eingebaut|geändert|angepasst|erstellt|geschrieben|aktualisiert|erweitert|überarbeitet|ersetzt|erledigt|fertig|` +
		`añadid[oa]s?|añadió|añadí|agregad[oa]s?|agregó|agregué|corregid[oa]s?|corrigió|implementad[oa]s?|implementó|modificad[oa]s?|modificó|cread[oa]s?|creó|escrit[oa]s?|actualizad[oa]s?|actualizó|cambiad[oa]s?|cambió|terminad[oa]s?|completad[oa]s?|` +
		`aggiunt[oaie]|corrett[oaie]|implementat[oaie]|modificat[oaie]|creat[oai]|scritt[oaie]|aggiornat[oaie]|cambiat[oaie]|completat[oaie]|` +
		`adicionad[oa]s?|adicionei|adicionou|corrigid[oa]s?|criad[oa]s?|atualizad[oa]s?|alterad[oa]s?|concluíd[oa]s?|` +
		`toegevoegd|aangepast|gewijzigd|opgelost|geïmplementeerd|bijgewerkt|uitgebreid|afgerond|` +
		`(?:добавил|добавлен|исправил|исправлен|реализовал|реализован|изменил|изменен|изменён|обновил|обновлен|обновлён|создал|создан|написал|дописал)\p{L}*|готово` +
		`)` + wordEnd +
		// Chinese, Japanese and Korean have no spaces between words: their
		// verbs of a change are matched anywhere.
		`|添加了|增加了|实现了|修复了|修改了|更新了|完成了|已添加|已增加|已实现|已修复|已修改|已完成|` +
		`追加しました|追加した|実装しました|実装した|修正しました|修正した|変更しました|変更した|更新しました|完了しました|対応しました|` +
		`추가했|추가되었|추가함|구현했|구현함|수정했|수정함|변경했|완료했|완료함`)
})

// otherDenialRE is a denial in those languages: "rien n'a été modifié",
// "nichts geändert", "no se cambió nada".
var otherDenialRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + wordStart + `(?:rien|aucune?|pas|jamais|non|nichts|kein\w*|nicht|nie|nada|ningun[oa]?|ningún|no|nulla|niente|nessun[oa]?|nenhum[a]?|não|niets|geen|niet|nooit|не|ничего|нет|никаких)` + wordEnd +
		`|没有|未|无需|不需要|なし|ません|ていない|しない|않았|않음|없`)
})

// otherNoteRE is the session's own notes, a comment or paperwork in those
// languages: writing them is the one change such a session made.
var otherNoteRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + wordStart + `(?:passation|journal|notes?|commentaires?|rapport|compte\s+rendu|plan|conception|analyse|` +
		`übergabe|notiz\w*|kommentar\w*|protokoll|bericht|dokumentation|entwurf|planung|` +
		`traspaso|notas?|comentarios?|informe|documentación|diseño|análisis|` +
		`consegna|commenti|commento|relazione|documentazione|` +
		`passagem|comentários?|relatório|documentação|` +
		`overdracht|notities|verslag|commentaar|documentatie|` +
		`заметк\p{L}*|отч[её]т\p{L}*|комментари\p{L}*|документаци\p{L}*|передач\p{L}*)` + wordEnd +
		`|交接|笔记|日志|报告|注释|文档|引き継ぎ|メモ|ログ|レポート|コメント|ドキュメント|인계|메모|보고서|주석|문서`)
})

// otherElsewhereRE is work outside the repository or by someone else in
// those languages: an honest ops session's "Ajouté la clé de déploiement au
// serveur" or "vom Team aktualisiert" changes no file and claims none.
var otherElsewhereRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + wordStart + `(?:serveurs?|paramètres|réglages|équipe|tickets?|` +
		`einstellungen|team|kolleg\w*|` +
		`servidor(?:es)?|configuración|ajustes|equipo|` +
		`server|impostazioni|squadra|` +
		`configurações|equipe|instellingen|` +
		`сервер\p{L}*|настройк\p{L}*)` + wordEnd +
		`|服务器|设置|团队|サーバー|設定|チーム|서버|설정|팀`)
})

// otherClauseEndRE splits at those languages' "and", "but", "then", "so".
var otherClauseEndRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\s+(?:et|mais|puis|donc|und|aber|dann|daher|deshalb|y|pero|luego|e|ma|poi|quindi|mas|então|en|maar|dus|и|но|поэтому)\s+|[。！？；，、]`)
})

// otherLanguageClaim returns the part of clause that claims a change in
// one of those languages, "" when none does.
func otherLanguageClaim(clause string) string {
	for _, part := range otherClauseEndRE().Split(clause, -1) {
		if otherMadeRE().MatchString(part) && !otherDenialRE().MatchString(part) && !otherNoteRE().MatchString(part) &&
			!ownNoteRE().MatchString(part) && !elsewhereRE().MatchString(part) && !otherElsewhereRE().MatchString(part) {
			return strings.TrimSpace(part)
		}
	}
	return ""
}
