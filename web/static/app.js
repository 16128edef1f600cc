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
})();
