/* The scoreboard, live (templates/board.html). The game's stream of changes (web/live.py:
   data-board-events) says when the game has moved on; the board is then asked again
   (?since=<version>: 204 while nothing changed) and replaced. Where no stream is held the
   board asks every second (a night's screen and page, which have none: every
   data-board-every ms); a hidden page asks nothing and catches up when shown. Without
   this script the page reloads itself (a <noscript> refresh). */
"use strict";
(() => {
  const body = document.body, {board, boardEvents} = body.dataset, every = +body.dataset.boardEvery || 1000;
  if (!board || !window.fetch) return;
  let version = +body.dataset.version, stream, timer, busy, again, polling = !boardEvents || !window.EventSource;
  const later = () => { clearTimeout(timer); if (polling && !document.hidden) timer = setTimeout(ask, every); };
  function ask() {
    if (busy) return void (again = true);
    busy = true;
    fetch(board + "?since=" + version)
      .then(r => r.status === 200 ? r.text() : null)
      .then(html => {
        if (!html) return;
        const page = new DOMParser().parseFromString(html, "text/html"), fresh = page.querySelector("[data-board-region]"), old = document.querySelector("[data-board-region]");
        const v = +page.body.dataset.version;
        if (!fresh || !old || v < version) return;
        old.replaceWith(document.adoptNode(fresh));
        document.title = page.title;
        body.dataset.version = version = v;
      })
      .catch(() => {})
      .then(() => { busy = false; if (again) again = false, ask(); else later(); });
  }
  const listen = () => {
    if (polling || stream || document.hidden) return;
    let open;
    const s = stream = new EventSource(boardEvents + "?since=" + version);
    s.onopen = () => open = 1;
    s.addEventListener("change", e => { if (+e.lastEventId > version) ask(); });
    s.addEventListener("bye", () => { s.close(); stream = null; listen(); });
    s.onerror = () => { if (!open || s.readyState > 1) s.close(), stream = null, polling = true, later(); };  /* no stream: ask */
  };
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { if (stream) stream.close(), stream = null; return; }
    ask();
    listen();
  });
  listen();
  later();
})();
