// sessiongate dashboard: the little htmx does not do itself. Loaded as a
// file because the Content-Security-Policy forbids inline script.
(function () {
	"use strict";
	// Tell the reader when polling cannot reach the server, and when it can again.
	document.addEventListener("htmx:sendError", function () {
		document.body.classList.add("offline");
	});
	document.addEventListener("htmx:afterRequest", function (e) {
		if (e.detail && e.detail.xhr && e.detail.xhr.status > 0) {
			document.body.classList.remove("offline");
		}
	});

	// Filter forms apply checkboxes, dropdowns and dates on change; text
	// fields on Enter (one request, the form's submit) or, for the search,
	// as you type. Their own change event (fired by Enter just before the
	// submit, or on leaving the field) is kept from the form, which would
	// otherwise send a second request that cancels the first.
	document.addEventListener("change", function (e) {
		var t = e.target;
		if (t.matches && t.matches("form.filters input[type='text'], form.filters input[type='search']")) {
			e.stopPropagation();
		}
	}, true);

	// After a page link (Older, Newer) swaps the results, focus goes to
	// the top of the new results, not to the bottom of the page.
	document.addEventListener("htmx:afterSettle", function (e) {
		var src = e.detail.requestConfig && e.detail.requestConfig.elt;
		if (src && src.closest && src.closest(".pager")) {
			var r = document.getElementById("results");
			if (r) { r.focus({ preventScroll: true }); r.scrollIntoView({ block: "start" }); }
		}
	});

	// ---- Live regions (elements with data-live that poll) ----
	// A live update must never destroy what the reader is doing: the server
	// answers 204 while nothing changed; when something did, focus, scroll
	// (window and sideways tables), open <details> are carried over to the
	// new content, and the swap waits while text inside it is selected.
	var paused = false;
	var lastHeard = 0;

	function isLive(el) { return el && el.hasAttribute && el.hasAttribute("data-live"); }

	document.addEventListener("htmx:beforeRequest", function (e) {
		if (paused && isLive(e.detail.elt)) { e.preventDefault(); }
	});

	// Focus is carried to the same control in the new content: by id, else
	// by what it is (tag, href, name, value) and its text, else by what it
	// is and its rank among its like (a count in a link's text may change).
	var focusable = "a, button, input, select, textarea, summary, [tabindex]";
	function base(el) {
		return [el.tagName, el.getAttribute("href") || "", el.getAttribute("name") || "", el.getAttribute("value") || ""].join("|");
	}
	function focusKey(root, el) {
		if (el.id) { return { id: el.id }; }
		var b = base(el), rank = 0;
		var all = root.querySelectorAll(focusable);
		for (var i = 0; i < all.length && all[i] !== el; i++) { if (base(all[i]) === b) { rank++; } }
		return { base: b, text: (el.textContent || "").trim(), rank: rank };
	}
	function find(root, k) {
		if (k.id) { return document.getElementById(k.id); }
		var all = root.querySelectorAll(focusable), like = [];
		for (var i = 0; i < all.length; i++) {
			if (base(all[i]) !== k.base) { continue; }
			if ((all[i].textContent || "").trim() === k.text) { return all[i]; }
			like.push(all[i]);
		}
		return like[k.rank] || like[0] || null;
	}
	function detailsKey(d, i) { return d.id ? "#" + d.id : "details:" + i; }

	var saved = null;
	document.addEventListener("htmx:beforeSwap", function (e) {
		var t = e.detail.target;
		if (!isLive(t) || !e.detail.shouldSwap) { return; }
		var sel = window.getSelection();
		if (sel && !sel.isCollapsed && sel.rangeCount > 0 && t.contains(sel.getRangeAt(0).commonAncestorContainer)) {
			// The reader is selecting text: keep the old content; the
			// next poll (same old version) brings the change again.
			e.detail.shouldSwap = false;
			return;
		}
		var open = {};
		t.querySelectorAll("details").forEach(function (d, i) { open[detailsKey(d, i)] = d.open; });
		var sideways = {};
		t.querySelectorAll(".table-wrap, .chart").forEach(function (w, i) { sideways[i] = w.scrollLeft; });
		var active = document.activeElement;
		saved = {
			id: t.id, x: window.scrollX, y: window.scrollY, open: open, sideways: sideways,
			focus: active && active !== document.body && t.contains(active) ? focusKey(t, active) : null
		};
	});
	document.addEventListener("htmx:afterSettle", function () {
		if (!saved) { return; }
		var s = saved;
		saved = null;
		var t = document.getElementById(s.id);
		if (!t) { return; }
		t.querySelectorAll("details").forEach(function (d, i) {
			var k = detailsKey(d, i);
			if (k in s.open) { d.open = s.open[k]; }
		});
		t.querySelectorAll(".table-wrap, .chart").forEach(function (w, i) {
			if (i in s.sideways) { w.scrollLeft = s.sideways[i]; w.dataset.scrolled = "1"; }
		});
		if (s.focus) {
			var f = find(t, s.focus);
			if (f) { f.focus({ preventScroll: true }); }
		}
		window.scrollTo(s.x, s.y);
	});

	document.addEventListener("htmx:afterRequest", function (e) {
		var x = e.detail && e.detail.xhr;
		if (isLive(e.detail.elt) && x && x.status >= 200 && x.status < 300) {
			lastHeard = Date.now();
			render();
		}
	});

	function render() {
		document.querySelectorAll("[data-live-status]").forEach(function (box) {
			var age = box.querySelector(".live-age");
			var btn = box.querySelector("[data-live-pause]");
			var text = "";
			if (lastHeard > 0) {
				var s = Math.max(0, Math.round((Date.now() - lastHeard) / 1000));
				text = "Updated " + s + " s ago";
			} else {
				text = "Live updates on";
			}
			if (paused) { text = "Updates paused" + (lastHeard > 0 ? " · last " + text.toLowerCase() : ""); }
			if (age.textContent !== text) { age.textContent = text; }
			btn.textContent = paused ? "Resume updates" : "Pause updates";
			btn.setAttribute("aria-pressed", paused ? "true" : "false");
		});
	}

	document.addEventListener("click", function (e) {
		var btn = e.target.closest && e.target.closest("[data-live-pause]");
		if (!btn) { return; }
		paused = !paused;
		render();
		if (!paused) {
			// Catch up at once rather than at the next tick.
			document.querySelectorAll("[data-live]").forEach(function (el) {
				if (window.htmx) { window.htmx.trigger(el, "sg:refresh"); }
			});
		}
	});

	// Regions that scroll sideways (wide tables, the chart on a phone) can
	// be reached and scrolled with the keyboard; the chart opens on its
	// newest days (today at the right).
	function scrollables(root) {
		(root || document).querySelectorAll(".table-wrap").forEach(function (w) {
			if (w.scrollWidth > w.clientWidth + 1) {
				w.setAttribute("tabindex", "0");
				w.setAttribute("role", "region");
				if (!w.hasAttribute("aria-label")) { w.setAttribute("aria-label", "Table; scrolls sideways"); }
			} else if (w.getAttribute("role") === "region") {
				w.removeAttribute("tabindex");
				w.removeAttribute("role");
			}
		});
		(root || document).querySelectorAll(".chart").forEach(function (c) {
			if (!c.dataset.scrolled) { c.scrollLeft = c.scrollWidth; c.dataset.scrolled = "1"; }
		});
	}
	// Copy buttons next to CLI commands (hidden without JavaScript).
	function copyButtons(root) {
		(root || document).querySelectorAll("[data-copy]").forEach(function (b) { b.hidden = false; });
	}
	document.addEventListener("click", function (e) {
		var b = e.target.closest && e.target.closest("[data-copy]");
		if (!b) { return; }
		var done = function () { b.textContent = "Copied"; setTimeout(function () { b.textContent = "Copy"; }, 1500); };
		if (navigator.clipboard && navigator.clipboard.writeText) {
			navigator.clipboard.writeText(b.getAttribute("data-copy")).then(done, function () { selectCode(b); });
		} else {
			selectCode(b);
		}
	});
	function selectCode(b) {
		var code = b.parentNode.querySelector("code");
		var r = document.createRange();
		r.selectNodeContents(code);
		var s = window.getSelection();
		s.removeAllRanges();
		s.addRange(r);
		b.textContent = "Selected: press Ctrl+C";
	}

	// The event filter: hides event rows that do not contain the text
	// (any case). Its value survives live updates.
	var eventFilter = "";
	function applyFilter(root) {
		(root || document).querySelectorAll("[data-event-filter]").forEach(function (box) {
			box.hidden = false;
			var input = box.querySelector("input");
			if (input.value !== eventFilter) { input.value = eventFilter; }
			var table = document.getElementById(input.getAttribute("data-filter"));
			if (!table) { return; }
			var q = eventFilter.trim().toLowerCase(), shown = 0, rows = table.tBodies[0].rows;
			for (var i = 0; i < rows.length; i++) {
				var hit = q === "" || rows[i].textContent.toLowerCase().indexOf(q) >= 0;
				rows[i].hidden = !hit;
				if (hit) { shown++; }
			}
			box.querySelector("[data-filter-count]").textContent = q === "" ? "" : shown + " of " + rows.length + " events";
		});
	}
	document.addEventListener("input", function (e) {
		if (e.target.matches && e.target.matches("[data-event-filter] input")) {
			eventFilter = e.target.value;
			applyFilter();
		}
	});

	// Relative times in lists ("3 h ago"); the absolute UTC time stays in
	// the title (hover) and the datetime attribute.
	function relTimes(root) {
		var now = Date.now();
		(root || document).querySelectorAll("time[data-rel]").forEach(function (t) {
			var ms = now - Date.parse(t.getAttribute("datetime"));
			if (isNaN(ms)) { return; }
			var s = Math.round(Math.abs(ms) / 1000), txt;
			if (s < 60) { txt = s + " s"; }
			else if (s < 3600) { txt = Math.round(s / 60) + " min"; }
			else if (s < 172800) { txt = Math.round(s / 3600) + " h"; }
			else { txt = Math.round(s / 86400) + " days"; }
			t.textContent = ms >= 0 ? txt + " ago" : "in " + txt;
		});
	}

	document.addEventListener("DOMContentLoaded", function () { scrollables(); copyButtons(); applyFilter(); relTimes(); });
	document.addEventListener("htmx:afterSettle", function () { copyButtons(); applyFilter(); relTimes(); });
	window.addEventListener("resize", function () { scrollables(); });
	document.addEventListener("htmx:afterSettle", function (e) { scrollables(e.detail.elt && e.detail.elt.parentNode); });

	document.addEventListener("DOMContentLoaded", function () {
		var boxes = document.querySelectorAll("[data-live-status]");
		if (boxes.length === 0) { return; }
		lastHeard = Date.now(); // the page itself was just loaded
		boxes.forEach(function (b) { b.hidden = false; });
		render();
		setInterval(render, 1000);
	});
})();
