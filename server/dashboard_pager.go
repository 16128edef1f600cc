package server

import (
	"net/url"
	"strings"
)

// "Newer" links without a backwards query: a page's URL carries, in
// back, the cursors of the pages before it ("0" for the first page),
// oldest first, so the Newer link is the previous page's own URL. The
// chain keeps the last maxBack pages; past that, Newest still leads back.

const maxBack = 20

// parseBack reads and checks the back chain; cursors are base64url, so
// "." never occurs in one and separates them.
func parseBack(q url.Values) ([]string, error) {
	v := strings.TrimSpace(q.Get("back"))
	if v == "" {
		return nil, nil
	}
	parts := strings.Split(v, ".")
	if len(parts) > maxBack {
		parts = parts[len(parts)-maxBack:]
	}
	for _, p := range parts {
		if p == "0" {
			continue
		}
		if _, _, _, err := decodeCursor(p); err != nil {
			return nil, badf("bad back chain: use the Newer and Older links the pages give")
		}
	}
	return parts, nil
}

// withBack adds the back chain to a list URL.
func withBack(u string, back []string) string {
	if len(back) == 0 {
		return u
	}
	if len(back) > maxBack {
		back = back[len(back)-maxBack:]
	}
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + "back=" + strings.Join(back, ".")
}

// pageLinks are a list page's Older, Newer and Newest URLs. listURL
// renders the filter with a cursor; cursor is this page's ("" on the
// first), next the following page's ("" on the last).
func pageLinks(listURL func(cursor string) string, cursor, next string, back []string) (older, newer, newest string) {
	if next != "" {
		here := cursor
		if here == "" {
			here = "0"
		}
		older = withBack(listURL(next), append(append([]string(nil), back...), here))
	}
	if cursor != "" {
		newest = listURL("")
		if n := len(back); n > 0 {
			prev := back[n-1]
			if prev == "0" {
				prev = ""
			}
			newer = withBack(listURL(prev), back[:n-1])
		}
	}
	return older, newer, newest
}
