// Package web holds the dashboard's templ components, their view models and
// the static assets (embedded, so the binary serves everything itself: no
// CDN, no run-time download).
//
// Generated code: run `templ generate -path web` after editing a .templ
// file and commit the *_templ.go output; CI fails when it is stale.
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"sync"
)

//go:embed static
var staticFS embed.FS

// Static is the tree served under /static/: app.css, app.js, favicon.svg
// and htmx (htmx.min.js with htmx.LICENSE and htmx.VERSION, pinned to the
// version named there).
var Static = mustSub(staticFS, "static")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return sub
}

// HTMXVersion is the vendored htmx release.
const HTMXVersion = "2.0.11"

// assetTags are short content hashes of the assets, appended to their URLs
// so a browser never mixes an old stylesheet with a new page. Computed on
// first use, not at package init: hook processes share this binary and never
// serve a page.
var assetTags = sync.OnceValue(func() map[string]string {
	tags := map[string]string{}
	entries, err := fs.ReadDir(Static, ".")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(Static, e.Name())
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(b)
		tags[e.Name()] = hex.EncodeToString(sum[:6])
	}
	return tags
})

// Asset is the URL of a static file with its content tag.
func Asset(name string) string {
	return "/static/" + name + "?v=" + assetTags()[name]
}

// AssetTag is the content tag of a static file ("" when unknown).
func AssetTag(name string) string { return assetTags()[name] }
