package mdtext_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/mdtext"
)

func TestShown(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"html comment", "## Done\n\n<!-- scripts/greet.sh takes a name. -->\n", "## Done\n\n\n"},
		{"comment across lines", "a <!-- one\ntwo --> b\n", "a \n b\n"},
		{"comment left open hides the rest", "a\n<!-- x\ny\n", "a\n\n\n"},
		{"link-comment", "## Next\n\n[//]: # (Document the name argument.)\n", "## Next\n\n\n"},
		{"link-comment with angle brackets and a title", "[comment]: <> \"hidden\"\nshown\n", "\nshown\n"},
		{"a reference definition renders as nothing", "see [the guide][g]\n\n[g]: docs/guide.md\n", "see [the guide][g]\n\n\n"},
		{"indented four spaces is code, shown", "    [x]: y\n", "    [x]: y\n"},
		{"a link in a sentence stays", "Fixed [greet](scripts/greet.sh): it takes a name.\n", "Fixed [greet](scripts/greet.sh): it takes a name.\n"},
		{"a checklist item stays", "- [x]: done the thing\n", "- [x]: done the thing\n"},
		// Round 39's re-check (helper-279).
		{"a code span's <!-- is shown", "- `<!--` starts a comment\n- scripts/greet.sh takes a name\n", "- `<!--` starts a comment\n- scripts/greet.sh takes a name\n"},
		{"a <!-- left open mid-line is text", "a <!-- b\nc\n", "a <!-- b\nc\n"},
		{"fenced code is shown", "```\n[scripts/greet.sh]: takes a name\n<!-- x -->\n```\n", "```\n[scripts/greet.sh]: takes a name\n<!-- x -->\n```\n"},
		{"a definition's title on the next line", "[//]: #\n    \"scripts/greet.sh takes a name\"\nshown\n", "\n\nshown\n"},
		{"a hidden element", "<div hidden>\nscripts/greet.sh\n</div>\nshown\n", "\n\n\nshown\n"},
		{"a script element", "<script type=\"text/plain\">greet</script>shown\n", "shown\n"},
		{"a processing instruction and CDATA", "<?done greet ?><![CDATA[ greet ]]>shown\n", "shown\n"},
		{"a link's title", "[.](# \"scripts/greet.sh takes a name\") shown\n", "[.](#) shown\n"},
		// Lazy pass 42 (helper-283).
		{"a hidden element holding another element", "<div hidden><b></b>scripts/greet.sh takes a name</div>shown\n", "shown\n"},
		{"hidden elements nested", "<div hidden><div>a</div>greet</div>shown <i>x</i>\n", "shown <i>x</i>\n"},
		{"a hidden element never closed hides the rest", "a\n<section style=\"display:none\">\ngreet\n", "a\n\n\n"},
		{"a hidden void element", "<input hidden value=\"x\">shown\n", "shown\n"},
		{"visibility hidden", "<span style=\"visibility: hidden\">greet</span>shown\n", "shown\n"},
		{"attribute values", "<span data-done=\"scripts/greet.sh takes a name\"></span>shown\n", "</span>shown\n"},
		{"an img's alt attribute", "<img src=\"x.png\" alt=\"greet takes a name\">\n", "\n"},
		{"a placeholder in angle brackets stays", "<what was completed>\n", "<what was completed>\n"},
		{"a tag without attributes stays", "<b>greet</b>\n", "<b>greet</b>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mdtext.Shown(tc.in)
			if got != tc.want {
				t.Errorf("Shown(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if strings.Count(got, "\n") != strings.Count(tc.in, "\n") {
				t.Errorf("lines moved: %d, want %d", strings.Count(got, "\n"), strings.Count(tc.in, "\n"))
			}
		})
	}
	if got := mdtext.ShownIn("notes.txt", "<!-- x -->"); got != "<!-- x -->" {
		t.Errorf("ShownIn of a text file changed it: %q", got)
	}
}

func TestHidePhantoms(t *testing.T) {
	for in, want := range map[string]string{
		`$\phantom{\text{greet takes a name}}$`:  `$$`,
		`a $\hphantom{x{y}z}$ b \vphantom {q} c`: `a $$ b  c`,
		"$\\phantom{one\ntwo}$":                  "$\n$",
		`no math here`:                           `no math here`,
		`$\phantom{\{unclosed` + "\n" + `rest`:   "$\n",
		`\phantoms are not \phantom{x}`:          `\phantoms are not `,
	} {
		if got := mdtext.HidePhantoms(in); got != want {
			t.Errorf("HidePhantoms(%q) = %q, want %q", in, got, want)
		}
	}
}
