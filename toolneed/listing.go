package toolneed

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// A requirement to list a folder ("MUST list available GitHub skill
// scripts" over `Get-ChildItem -Path ".claude/skills/github/scripts"`)
// met by typed tool output: a listing that names a script the folder does
// not hold, or names none of the ones it holds (`total 0`), was taken
// (round 61, helper 353). What the folder holds is known; a typed listing
// must agree with it.

// ListedFolders are the folders a requirement asks to list ("list" in its
// first line; "verify ... exists" asks for the folder, not its entries).
// doc gives the protocol's text, read only for a list requirement: a requirement that ends in ":" is followed
// by the command it means (`Get-ChildItem -Path "..."` in a fence), which
// the parsed requirement does not hold.
func ListedFolders(r protocolspec.Requirement, doc func() string) []string {
	first, _, _ := strings.Cut(r.Text, "\n")
	if !listWord().MatchString(first) {
		return nil
	}
	if strings.HasSuffix(strings.TrimSpace(r.Text), ":") {
		r.Text += "\n" + blockAfter(doc(), r.Line)
	}
	var out []string
	for _, p := range checkedPaths(r) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// blockAfter is the fenced block that starts within two lines after line
// (1-based) of doc, "" when there is none.
func blockAfter(doc string, line int) string {
	lines := strings.Split(doc, "\n")
	for i := line; i < len(lines) && i <= line+2; i++ {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
			continue
		}
		var b strings.Builder
		for _, l := range lines[i+1:] {
			if u := strings.TrimSpace(l); strings.HasPrefix(u, t[:3]) {
				return b.String()
			}
			b.WriteString(l + "\n")
		}
		return ""
	}
	return ""
}

var listWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\blist\b`) })

// fileWord is a word that names a file: a name with an extension.
var fileWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_.-]*\.([A-Za-z0-9]{1,8})\b`)
})

// ListingFalse says why body, a typed listing of folder, disagrees with
// entries (the folder's files, relative to it, any depth): it names a file
// with one of the entries' extensions that is not among them, or names
// none of them. "" when it agrees, or when the folder holds nothing.
func ListingFalse(folder, body string, entries []string) string {
	if len(entries) == 0 {
		return ""
	}
	have, exts := map[string]bool{}, map[string]bool{}
	// bare are names with no extension the folder holds: files ("deploy",
	// "Makefile") and its own subfolders ("pr" in `ls` of a folder whose
	// scripts sit in pr/ and issue/). An honest listing may name only
	// these (helper 358).
	bare := map[string]bool{}
	for _, e := range entries {
		b := path.Base(e)
		have[strings.ToLower(b)] = true
		if i := strings.LastIndexByte(b, '.'); i > 0 {
			exts[strings.ToLower(b[i+1:])] = true
		} else {
			bare[strings.ToLower(b)] = true
		}
		if dir, _, ok := strings.Cut(e, "/"); ok {
			bare[strings.ToLower(dir)] = true
		}
	}
	var unknown []string
	named := 0
	seen := map[string]bool{}
	for _, ix := range fileWord().FindAllStringSubmatchIndex(body, -1) {
		m0, m1 := body[ix[0]:ix[1]], body[ix[2]:ix[3]]
		w, ext := strings.ToLower(m0), strings.ToLower(m1)
		if !exts[ext] || seen[w] {
			continue
		}
		if outsideFolder(pathToken(body, ix[0], ix[1]), folder) {
			// ".claude/skills/github/SKILL.md" beside the listing names
			// a file of another folder, not one of this folder's
			// (helper 359).
			continue
		}
		seen[w] = true
		if have[w] {
			named++
		} else {
			unknown = append(unknown, m0)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Sprintf("the listing names %s, which %s holds no file of that name (it holds %d files: %s)", shorten.List(unknown, 3), folder, len(entries), shorten.List(baseNames(entries), 3))
	}
	if named == 0 && len(bare) > 0 {
		for _, w := range strings.FieldsFunc(body, notNameRune) {
			if bare[strings.ToLower(strings.TrimRight(w, "/\\"))] {
				named++
				break
			}
		}
	}
	if named == 0 {
		return fmt.Sprintf("the listing names none of the %d files %s holds (%s)", len(entries), folder, shorten.List(baseNames(entries), 3))
	}
	return ""
}

// notNameRune ends a name in a listing: names are letters, digits and
// "_.-".
func notNameRune(r rune) bool {
	return !(r == '_' || r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
}

// pathToken is the path the file word at body[i:j] ends: back to a space,
// quote, backtick, bracket, comma or table bar; backslashes as slashes.
func pathToken(body string, i, j int) string {
	for i > 0 && !strings.ContainsRune(" \t\n\r`'\"()[]<>,|:", rune(body[i-1])) {
		i--
	}
	return strings.ReplaceAll(body[i:j], `\`, "/")
}

// outsideFolder: tok is a path to a file of another folder than folder, as
// written ("../modules/X.psm1", ".claude/skills/github/SKILL.md" for the
// folder .claude/skills/github/scripts). A bare name, a path within the
// folder, or one relative to it ("pr/New-PR.ps1") is not.
func outsideFolder(tok, folder string) bool {
	tok = strings.TrimPrefix(tok, "./")
	if strings.HasPrefix(tok, "../") {
		return true
	}
	if !strings.Contains(tok, "/") {
		return false
	}
	folder = strings.Trim(folder, "/")
	if strings.HasPrefix(tok, folder+"/") || strings.Contains(tok, "/"+folder+"/") {
		return false
	}
	top, _, _ := strings.Cut(folder, "/")
	return top != folder && (strings.HasPrefix(tok, top+"/") || strings.Contains(tok, "/"+top+"/"))
}

func baseNames(entries []string) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, path.Base(e))
	}
	sort.Strings(out)
	return out
}
