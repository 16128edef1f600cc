package docmention

// DeletedAnswers returns the names ("kind text") a deleted doc answers
// for: each name every hit of which was touched in a file the change
// deleted and names a doc the change deleted. The program went and its doc
// with it (rjmurillo/ai-agents ba541c2 removed four skills, their scripts
// and their published SKILL.md copies). A name still defined in a file the
// change kept (main.go moved to cmd/main.go) is not answered by deleting
// its README.
func DeletedAnswers(hits []Hit, deletedDocs, deletedFiles []string) map[string]bool {
	del := map[string]bool{}
	for _, f := range deletedFiles {
		del[f] = true
	}
	docs := map[string]bool{}
	for _, d := range deletedDocs {
		docs[d] = true
	}
	kept, inDeleted := map[string]bool{}, map[string]bool{}
	for _, h := range hits {
		k := h.Kind + " " + h.Text
		if !del[h.File] {
			kept[k] = true
		}
		if docs[h.Doc] {
			inDeleted[k] = true
		} else {
			kept[k] = true // a doc that stays names it: it answers there
		}
	}
	out := map[string]bool{}
	for k := range inDeleted {
		if !kept[k] {
			out[k] = true
		}
	}
	return out
}
