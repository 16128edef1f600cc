package shellline

import "strings"

// configAlias reads the words after `git config` as an alias it sets:
// `alias.NAME VALUE` in the old syntax and in git 2.46's `git config set
// [--file F] [--type T] [--comment C] alias.NAME VALUE` (round 21: the
// `set` word made three operands, so the alias was not seen and `git
// config set alias.q '!rm SESSION-PROTOCOL.md' && git q` passed). -f/--file
// naming .git/config or another file is read alike: the lookup does not
// ask which file git reads.
func configAlias(rest []string) (name, value string, ok bool) {
	pos := positional(rest, map[string]bool{"-f": true, "--file": true, "--type": true, "--comment": true, "--value": true, "--blob": true})
	if len(pos) == 3 && pos[0] == "set" {
		pos = pos[1:]
	}
	if len(pos) != 2 {
		return "", "", false
	}
	name, ok = strings.CutPrefix(strings.ToLower(pos[0]), "alias.")
	return name, pos[1], ok && name != ""
}
