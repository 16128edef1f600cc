package protocolspec

// A cue is a set of phrases one inference rule's regexp cannot match
// without: infer runs a rule only on requirements holding one of them.
// All of a requirement's cues are found in one pass over its lower-cased
// text when it is settled; asking strings.Contains for each phrase of
// each rule scanned the text once per phrase.
type cue uint16

const (
	cueNotModify     cue = 1 << iota // mustNotModifyWords
	cueMustUpdate                    // mustUpdateWords
	cueReadOnly                      // readOnlyWords
	cueDefaultBranch                 // defaultBranchWords
	cueFeatureBranch                 // featureBranchWords
	cueConventional                  // conventionalWords
	cueCleanTree                     // cleanTreeWords
	cueUncommitted                   // "uncommitted"
	cueSection                       // "section"
)

var (
	readOnlyWords      = []string{"read-only", "read only"}
	defaultBranchWords = []string{"main", "master", "default"}
	conventionalWords  = []string{"conventional commit", "conventional-commit"}
	cleanTreeWords     = []string{"clean", "commit all", "stage all"}
)

// cueWords lists each cue's phrases.
var cueWords = map[cue][]string{
	cueNotModify:     mustNotModifyWords,
	cueMustUpdate:    mustUpdateWords,
	cueReadOnly:      readOnlyWords,
	cueDefaultBranch: defaultBranchWords,
	cueFeatureBranch: featureBranchWords,
	cueConventional:  conventionalWords,
	cueCleanTree:     cleanTreeWords,
	cueUncommitted:   {"uncommitted"},
	cueSection:       {"section"},
}

type cuePhrase struct {
	text string
	cue  cue
}

// cuePairs holds the first two bytes of every phrase, and cuesByFirst the
// phrases by their first byte: most positions of a text start no phrase's
// pair, and are passed after one look-up.
var cuePairs, cuesByFirst = func() (pairs [1 << 16 / 64]uint64, t [256][]cuePhrase) {
	for c, words := range cueWords {
		for _, w := range words {
			k := pairKey(w[0], w[1])
			pairs[k/64] |= 1 << (k % 64)
			t[w[0]] = append(t[w[0]], cuePhrase{w, c})
		}
	}
	return pairs, t
}()

func pairKey(a, b byte) int { return int(a)<<8 | int(b) }

// cuesOf returns the cues whose phrases lower holds.
func cuesOf(lower []byte) cue {
	var found cue
	for i := 0; i+1 < len(lower); i++ {
		if k := pairKey(lower[i], lower[i+1]); cuePairs[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, p := range cuesByFirst[lower[i]] {
			if found&p.cue == 0 && len(lower)-i >= len(p.text) && string(lower[i:i+len(p.text)]) == p.text {
				found |= p.cue
			}
		}
	}
	return found
}
