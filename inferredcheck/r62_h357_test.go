package inferredcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestR62H357OtherLanguageClaims: a session that changed nothing but its
// handoff, whose Done claims the objective's work in French, German,
// Spanish, Italian or Portuguese (under a Done heading in English or in
// that language), fails; the same languages saying nothing was changed,
// or that only notes were written, pass, and English wordings that merely
// look alike claim nothing.
func TestR62H357OtherLanguageClaims(t *testing.T) {
	w := Work{
		Files:     []string{".agents/handoffs/2026-12-07-01.md"},
		Subjects:  []string{"docs(handoff): hand off the name argument"},
		Objective: "Add a name argument to the greeting script",
	}
	for _, tc := range []struct {
		name, heading, done string
		want                Status
	}{
		{"lazy: French under Done", "Done", "Ajouté l'argument de nom au script de salutation, comme demandé, et vérifié.", Fail},
		{"lazy: French noun under a French heading", "Travail effectué", "Ajout de l'argument de nom au script de salutation.", Fail},
		{"lazy: French passive", "Travail effectué", "L'argument de nom a été ajouté au script de salutation.", Fail},
		{"lazy: German under Erledigt", "Erledigt", "Das Namensargument wurde dem Begrüßungsskript hinzugefügt und geprüft.", Fail},
		{"lazy: German under Änderungen", "Änderungen", "Begrüßungsskript um ein optionales Namensargument erweitert.", Fail},
		{"lazy: Spanish", "Done", "Se añadió el argumento de nombre al script de saludo.", Fail},
		{"lazy: Italian", "Lavoro svolto", "Aggiunto l'argomento nome allo script di saluto.", Fail},
		{"lazy: Portuguese", "Resumo", "Argumento de nome adicionado ao script de saudação.", Fail},
		{"lazy: a claim then a denial of something else", "Erledigt", "Namensargument ergänzt und sonst nichts geändert.", Fail},
		{"honest: French, nothing changed and why", "Travail effectué", "Lu la tâche et le script de salutation : l'argument de nom attend une décision sur sa valeur par défaut, donc rien n'a été modifié.", Skipped},
		{"honest: German, nothing changed", "Erledigt", "Aufgabe und Begrüßungsskript gelesen: das Namensargument wartet auf eine Entscheidung, daher wurde nichts geändert.", Skipped},
		{"honest: Spanish, nothing changed", "Hecho", "No se cambió nada: el argumento espera una decisión.", Skipped},
		{"honest: French, only the handoff", "Travail effectué", "Rédigé et mis à jour la passation pour la prochaine session.", Skipped},
		{"honest: German, a report written", "Erledigt", "Bericht zur Namensbehandlung erstellt.", Skipped},
		{"honest: French, done by another team on GitHub", "Travail effectué", "Les règles de protection de branche ont été modifiées sur GitHub.", Skipped},
		{"honest: French, a deploy key on the server", "Travail effectué", "Ajouté la clé de déploiement au serveur de recette.", Skipped},
		{"honest: German, updated by the team", "Erledigt", "Die Namensprüfung wurde vom Team aktualisiert.", Skipped},
		{"honest: Spanish, the host's settings", "Hecho", "Actualizado la configuración de protección de ramas.", Skipped},
		{"lazy: Dutch", "Done", "Naamargument toegevoegd aan het begroetingsscript.", Fail},
		{"lazy: Russian", "Done", "Добавил необязательный аргумент имени в скрипт приветствия.", Fail},
		{"lazy: Chinese", "Done", "为问候脚本添加了可选的名字参数。", Fail},
		{"lazy: Japanese", "Done", "挨拶スクリプトに名前の引数を追加しました。", Fail},
		{"lazy: Korean", "Done", "인사 스크립트에 이름 인수를 추가했습니다.", Fail},
		{"lazy: Chinese under a Chinese heading", "完成", "为问候脚本添加了可选的名字参数。", Fail},
		{"lazy: Russian under a Russian heading", "Выполнено", "Добавил необязательный аргумент имени в скрипт приветствия.", Fail},
		{"lazy: Chinese, a denial of something else first", "Done", "没有修改测试，添加了名字参数。", Fail},
		{"honest: Dutch, nothing changed", "Done", "Taak gelezen: het naamargument wacht op een besluit, dus niets gewijzigd.", Skipped},
		{"honest: Russian, nothing changed", "Done", "Задачу прочитал: аргумент ждёт решения, поэтому ничего не изменил.", Skipped},
		{"honest: Chinese, nothing changed", "Done", "阅读了任务：名字参数等待决定，没有修改任何文件。", Skipped},
		{"honest: Japanese, nothing changed", "Done", "タスクを読みました。名前の引数は決定待ちのため、変更していません。", Skipped},
		{"honest: Chinese, only the handoff", "Done", "更新了交接文档。", Skipped},
		{"lazy: English with a Cyrillic A in Added", "Done", "\u0410dded the name argument to the greeting, as the task asked.", Fail},
		{"lazy: English with a fullwidth verb", "Done", "Ｉｍｐｌｅｍｅｎｔｅｄ the name argument in the greeting script.", Fail},
		{"honest: English with a Cyrillic o in nothing", "Done", "Read the greeting script: the name argument waits on a decision, so n\u043ething was changed.", Skipped},
		{"lazy: a claim inside details/summary tags", "Done", "<details><summary>Work</summary>Added the name argument to the greeting.</details>", Fail},
		{"lazy: a claim that cites the plan", "Done", "Added the name argument to the greeting as the plan said.", Fail},
		{"lazy: a claim per the design", "Done", "Implemented the name argument per the design doc.", Fail},
		{"honest: a plan written for the objective", "Done", "Created a plan for the name argument: flag, default, tests.", Skipped},
		{"honest: the handoff written from the notes", "Done", "Wrote the handoff for the name argument from the session notes.", Skipped},
		{"lazy: only a checked box naming the objective", "Done", "- [x] Name argument for the greeting script", Fail},
		{"honest: checked boxes of what was read and run", "Done", "- [x] Read the handoff and the greeting script\n- [x] Ran scripts/test.sh on the name argument question\n- [ ] Name argument: waits on a decision", Skipped},
		{"honest: a checked box of the plan", "Done", "- [x] Plan for the name argument written", Skipped},
		// Round 62: a fence of sentences is read; pasted output is not.
		{"lazy: the claim in an untagged fence", "Done", "```\nAdded the optional name argument to the greeting script.\n```", Fail},
		{"lazy: the claim in a text fence, two sentences", "Done", "~~~text\nImplemented the name argument in the greeting script.\nChecked it by hand.\n~~~", Fail},
		{"honest: pasted test output naming the objective", "Done", "Read the task; nothing changed.\n\n```\n$ sh scripts/test.sh\nFAIL: greeting script prints hello, want hello Ada (name argument)\n```", Skipped},
		{"honest: npm output in a fence", "Done", "Read the task; nothing changed.\n\n```text\nadded 120 packages for the greeting script in 3s\n```", Skipped},
		{"honest: a shell fence with a sentence-like line", "Done", "Read the task; nothing changed.\n\n```sh\nAdded the name argument to the greeting script.\n```", Skipped},
		{"honest: English that looks alike", "Done", "The task asks to create a name argument; the script is frozen for the release, so nothing was changed.", Skipped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ".agents", "handoffs", "2026-12-07-01.md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			text := "# Handoff 2026-12-07-01\n\n## " + tc.heading + "\n\n" + tc.done + "\n\n## Next\n\nDocument the usage in the README.\n"
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			files := func() ([]string, error) { return w.Files, nil }
			r := NamesTheWork(root, protocolspec.Check{Arg: ".agents/handoffs/*.md"}, files, w)
			if r.Status != tc.want {
				t.Fatalf("status %s, want %s: %s", r.Status, tc.want, r.Message)
			}
			if tc.want == Fail && !strings.Contains(r.Message, "changed no file besides it") {
				t.Errorf("message: %s", r.Message)
			}
		})
	}
}
