package docmention

import "strings"

// stripHiddenHTML removes from a markdown line the HTML elements a
// renderer shows as nothing: one with a `hidden` attribute (<span hidden>)
// or a style of display:none or visibility:hidden (or one styleHides
// reads: opacity 0, font-size 0, text coloured as its background), and a <style>,
// <script> or <template> element. An element left open
// on the line hides the following lines until its closing tag (open names
// it). Nested elements of the same name inside it are not followed.
// <details> is shown (a reader opens it): its text counts.
//
// classes are the class names a <style> block of the doc hides
// (docHiddenClasses): an element carrying one hides its content too
// (round 23).
func stripHiddenHTML(t, open string, classes ...map[string]bool) (string, string) {
	var hc map[string]bool
	if len(classes) > 0 {
		hc = classes[0]
	}
	var b strings.Builder
	for t != "" {
		if open != "" {
			j := strings.Index(strings.ToLower(t), "</"+open)
			if j < 0 {
				return b.String(), open
			}
			t = t[j+2+len(open):]
			if k := strings.IndexByte(t, '>'); k >= 0 {
				t = t[k+1:]
			}
			open = ""
			continue
		}
		i := hiddenTag(t, hc)
		if i < 0 {
			b.WriteString(t)
			break
		}
		b.WriteString(t[:i])
		end := strings.IndexByte(t[i:], '>')
		name := tagName(t[i+1:])
		if end < 0 || name == "" {
			break // a tag cut by the line: the rest is its attributes
		}
		if strings.HasSuffix(t[i:i+end], "/") {
			t = t[i+end+1:] // self-closing
			continue
		}
		t, open = t[i+end+1:], name
	}
	return b.String(), open
}

// hiddenTag returns where the first opening tag that hides its content
// starts, or -1.
func hiddenTag(t string, classes map[string]bool) int {
	lt := strings.ToLower(t)
	for i := 0; i < len(lt); i++ {
		if lt[i] != '<' || i+1 >= len(lt) || !(lt[i+1] >= 'a' && lt[i+1] <= 'z') {
			continue
		}
		end := strings.IndexByte(lt[i:], '>')
		if end < 0 {
			end = len(lt) - i
		}
		if strings.Count(lt[:i], "`")%2 == 1 && strings.Contains(lt[i:], "`") {
			continue // inside an inline code span: shown as text (a lone backtick opens none)
		}
		tag := lt[i : i+end]
		// CSS allows any white space around the colon (a tab too).
		attrs := strings.Join(strings.Fields(tag), "")
		if strings.Contains(attrs, "display:none") || strings.Contains(attrs, "visibility:hidden") || hiddenAttr(tag) || styleHides(tag) || classHidden(tag, classes) {
			return i
		}
		// A browser shows none of these elements' content: it applies a
		// style, runs a script, keeps a template inert (round 21 review).
		switch tagName(lt[i+1:]) {
		case "style", "script", "template":
			return i
		}
	}
	return -1
}

// hiddenAttr: a bare `hidden` attribute (or hidden="..."), not aria-hidden.
func hiddenAttr(tag string) bool {
	for _, f := range strings.Fields(strings.TrimSuffix(strings.TrimSuffix(tag, "/"), ">"))[1:] {
		if f == "hidden" || strings.HasPrefix(f, "hidden=") {
			return true
		}
	}
	return false
}

func tagName(t string) string {
	n := 0
	for n < len(t) && (t[n] >= 'a' && t[n] <= 'z' || t[n] >= 'A' && t[n] <= 'Z' || t[n] >= '0' && t[n] <= '9') {
		n++
	}
	return strings.ToLower(t[:n])
}

// shownElement: the element shows something with no text inside it (a
// switch, not a map: nothing allocated at init on the hook path).
func shownElement(name string) bool {
	switch name {
	case "img", "picture", "video", "audio", "svg", "iframe", "object", "embed", "input", "hr", "canvas",
		"math", "textarea", "select", "button", "progress", "meter":
		return true
	}
	return false
}

// onlyEmptyHTML: the line is HTML tags and nothing a renderer shows
// (`<a name="x"></a>`, `<span title="..."></span>`): their attributes'
// text is no doc change (round 21 review). An autolink (<https://...>),
// an element shown without text (img, hr, ...) or any text between the
// tags is shown.
func onlyEmptyHTML(t string) bool {
	if !strings.HasPrefix(t, "<") && !strings.Contains(t, "><") && !strings.HasSuffix(t, ">") {
		return false
	}
	saw := false
	for t != "" {
		i := strings.IndexByte(t, '<')
		if i < 0 {
			return strings.TrimSpace(t) == ""
		}
		if strings.TrimSpace(t[:i]) != "" {
			return false
		}
		end := strings.IndexByte(t[i:], '>')
		if end < 0 {
			return false
		}
		tag := t[i+1 : i+end]
		name := tagName(strings.TrimPrefix(tag, "/"))
		if name == "" || strings.ContainsAny(tag, "@") && !strings.ContainsAny(tag, " =") || strings.HasPrefix(tag[len(name):], ":") {
			return false // not a tag: an autolink or text
		}
		if shownElement(name) {
			return false
		}
		saw = true
		t = t[i+end+1:]
	}
	return saw
}

// stripEmptyElements removes from a line the elements with nothing
// inside that show nothing (`<span title="..."></span>`, `<a name="x"/>`):
// the text of their attributes is no doc change (round 21 review).
func stripEmptyElements(t string) string {
	lt := strings.ToLower(t)
	for i := 0; i < len(lt); i++ {
		if lt[i] != '<' || i+1 >= len(lt) || !(lt[i+1] >= 'a' && lt[i+1] <= 'z') {
			continue
		}
		name := tagName(lt[i+1:])
		end := strings.IndexByte(lt[i:], '>')
		if end < 0 || shownElement(name) || strings.HasPrefix(lt[i+1+len(name):], ":") {
			continue
		}
		j := i + end + 1
		if !strings.HasSuffix(lt[i:j-1], "/") {
			closing := "</" + name + ">"
			rest := strings.TrimLeft(lt[j:], " \t")
			if !strings.HasPrefix(rest, closing) {
				continue
			}
			j = len(lt) - len(rest) + len(closing)
		}
		t, lt = t[:i]+t[j:], lt[:i]+lt[j:]
		i--
	}
	return t
}

// styleHides reads a tag's style attribute (lower case) for the ways a
// browser draws text as nothing that are not display or visibility
// (round 22): opacity 0, font-size 0, transparent text or text the colour
// of its own background, a box of zero height or width that hides its
// overflow, or text placed far off the page. Only the element's own
// declarations are read (a class's stylesheet is not followed).
func styleHides(tag string) bool {
	i := strings.Index(tag, "style")
	for i >= 0 && i > 0 && tag[i-1] != ' ' && tag[i-1] != '\t' && tag[i-1] != '\n' {
		j := strings.Index(tag[i+1:], "style")
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	if i < 0 {
		return false
	}
	rest := strings.TrimLeft(tag[i+len("style"):], " \t")
	rest, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" {
		return false
	}
	q := rest[0]
	var style string
	if q == '"' || q == '\'' {
		end := strings.IndexByte(rest[1:], q)
		if end < 0 {
			end = len(rest) - 1
		}
		style = rest[1 : 1+end]
	} else {
		style, _, _ = strings.Cut(rest, " ")
	}
	decl := map[string]string{}
	for _, d := range strings.Split(style, ";") {
		k, v, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
		decl[strings.TrimSpace(k)] = strings.Join(strings.Fields(v), "")
	}
	zero := func(v string) bool {
		v = strings.TrimRight(v, "pxemrchvwi%t")
		v = strings.TrimLeft(v, "+")
		if v == "" {
			return false
		}
		for _, c := range v {
			if c != '0' && c != '.' {
				return false
			}
		}
		return true
	}
	if v, ok := decl["opacity"]; ok && zero(v) {
		return true
	}
	if v, ok := decl["font-size"]; ok && zero(v) {
		return true
	}
	color := decl["color"]
	if color == "transparent" || strings.HasPrefix(color, "rgba(") && strings.HasSuffix(color, ",0)") {
		return true
	}
	for _, bg := range []string{decl["background-color"], decl["background"]} {
		if color != "" && bg == color {
			return true
		}
	}
	if o := decl["overflow"]; o == "hidden" || o == "clip" {
		if v, ok := decl["height"]; ok && zero(v) {
			return true
		}
		if v, ok := decl["width"]; ok && zero(v) {
			return true
		}
	}
	for _, k := range []string{"left", "top", "text-indent", "margin-left"} {
		if v := decl[k]; strings.HasPrefix(v, "-") && offPage(v) {
			return true
		}
	}
	return false
}

// offPage: a negative length of a thousand pixels (or 100 em) or more,
// the usual way to place text beyond the page's edge.
func offPage(v string) bool {
	n := strings.TrimLeft(v, "-")
	digits := 0
	for digits < len(n) && n[digits] >= '0' && n[digits] <= '9' {
		digits++
	}
	unit := n[digits:]
	switch {
	case unit == "px" || unit == "":
		return digits >= 4
	case unit == "em" || unit == "rem" || unit == "ch":
		return digits >= 3
	}
	return false
}

// docHiddenClasses reads a doc's <style> blocks for rules whose selector
// is a class (`.note`, `span.note`, a list of them) and whose declarations
// hide text the way an element's own style does: display:none,
// visibility:hidden, or what styleHides reads (round 23: `<style>.x
// {display:none}</style>` and `<span class="x">` beside a mention read as
// a doc change). Renderers that strip <style> (GitHub) show the text; one
// that keeps it (a docs site) does not: the doc is judged as hidden.
func docHiddenClasses(body string) map[string]bool {
	lb := strings.ToLower(body)
	var out map[string]bool
	for {
		i := strings.Index(lb, "<style")
		if i < 0 {
			return out
		}
		lb = lb[i:]
		gt := strings.IndexByte(lb, '>')
		end := strings.Index(lb, "</style")
		if gt < 0 || end < 0 || end < gt {
			return out
		}
		css := lb[gt+1 : end]
		lb = lb[end:]
		for {
			open := strings.IndexByte(css, '{')
			close := strings.IndexByte(css, '}')
			if open < 0 || close < open {
				break
			}
			sel, decls := css[:open], css[open+1:close]
			css = css[close+1:]
			flat := strings.Join(strings.Fields(decls), "")
			if !(strings.Contains(flat, "display:none") || strings.Contains(flat, "visibility:hidden") || styleHides(`style="`+strings.ReplaceAll(decls, `"`, "'")+`"`)) {
				continue
			}
			for _, one := range strings.Split(sel, ",") {
				one = strings.TrimSpace(one)
				if k := strings.LastIndexByte(one, ' '); k >= 0 {
					one = one[k+1:] // `.doc .x`: the class the text carries
				}
				_, cls, ok := strings.Cut(one, ".")
				if !ok || cls == "" || strings.ContainsAny(cls, ":[#>+~.") {
					continue
				}
				if out == nil {
					out = map[string]bool{}
				}
				out[cls] = true
			}
		}
	}
}

// classHidden: the tag (lower case) has a class attribute naming one of
// classes.
func classHidden(tag string, classes map[string]bool) bool {
	if len(classes) == 0 {
		return false
	}
	i := strings.Index(tag, "class")
	for i > 0 && tag[i-1] != ' ' && tag[i-1] != '\t' {
		j := strings.Index(tag[i+1:], "class")
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	if i < 0 {
		return false
	}
	rest := strings.TrimLeft(tag[i+len("class"):], " \t")
	rest, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" {
		return false
	}
	v := rest
	if q := rest[0]; q == '"' || q == '\'' {
		v = rest[1:]
		if k := strings.IndexByte(v, q); k >= 0 {
			v = v[:k]
		}
	} else if k := strings.IndexAny(v, " \t/"); k >= 0 {
		v = v[:k]
	}
	for _, c := range strings.Fields(v) {
		if classes[c] {
			return true
		}
	}
	return false
}
