/// The one script, served at `/assets/live.js` (D515): it listens to `/events` (Server-Sent
/// Events) and, after a change in the ledger, fetches the page again and swaps in its main
/// content when the page is marked `data-live` (pages with figures, not forms). A live page that
/// also holds a form marks its figures `data-live-part` (with an id): only those are swapped, so
/// what is being typed stays (D580). Pages work fully without it; a failed fetch leaves the page
/// as it was.
enum LiveScript {
    static let javascript = """
    "use strict";
    (function () {
      var main = document.querySelector("main[data-live]");
      var state = document.getElementById("live-state");
      if (!window.EventSource) { return; }
      var source = new EventSource("/events");
      var busy = false, again = false;
      function refresh() {
        if (busy) { again = true; return; }
        busy = true;
        fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
          .then(function (response) { return response.ok ? response.text() : null; })
          .then(function (text) {
            if (text === null) { return; }
            var next = new DOMParser().parseFromString(text, "text/html").querySelector("main[data-live]");
            if (!next || !main) { return; }
            var parts = main.querySelectorAll("[data-live-part][id]");
            if (parts.length === 0) { main.innerHTML = next.innerHTML; return; }
            parts.forEach(function (part) {
              var fresh = next.querySelector("#" + CSS.escape(part.id));
              if (fresh) { part.replaceWith(document.importNode(fresh, true)); }
            });
          })
          .catch(function () {})
          .then(function () { busy = false; if (again) { again = false; refresh(); } });
      }
      source.addEventListener("open", function () { if (state) { state.textContent = "live"; } });
      source.addEventListener("error", function () { if (state) { state.textContent = "reconnecting"; } });
      source.addEventListener("change", function () { if (main) { refresh(); } });
    })();
    """
}
