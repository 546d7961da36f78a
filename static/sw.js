/* Scorekeeper's service worker (app.js registers it; served at /sw.js, so that it sees
   the whole site): the table pages this phone opened (Iceberg's and Rummy 500's table,
   Robber's hand), what a new meld scores there (/worth, for plays made offline) and the
   files they use, kept for when the network is gone. Each is asked
   of the server first and a copy of its answer kept on this phone, replaced by the page
   as it stands whenever live changes reach it (app.js); offline, the copy is the answer:
   the table as this phone last saw it, its plays not sent yet waiting (app.js keeps them
   in localStorage and sends them, in order, once the server answers again). Nothing else
   is kept: every other page, the live changes and every form go to the server, or fail
   as they would without it. */
"use strict";
const KEPT = "scorekeeper-tables";
const kept = url => url.origin === location.origin && /^(.*\/static\/.+|.*\/g\/[^/]+\/(table|robber|(robber\/)?worth))$/.test(url.pathname);
/* A table page's /worth: beside its /live (app.js asks it there). */
const worth = url => new URL(url.pathname.replace(/(\/robber)?(\/table)?$/, (m, r) => (r || "") + "/worth"), url);

/* A table page kept as it now is: app.js sends it once live changes have made the copy
   kept of its load older (the server's headers kept with it). */
self.addEventListener("message", e => {
  const {page, url} = e.data || {}, at = typeof url === "string" && new URL(url, location.href);
  if (typeof page !== "string" || !at || !kept(at) || /\/static\//.test(at.pathname)) return;
  const key = at.origin + at.pathname;
  e.waitUntil(caches.open(KEPT).then(shelf => shelf.match(key, {ignoreVary: true}).then(old => {
    if (!old) return;
    const headers = new Headers(old.headers);
    headers.delete("Content-Length");
    return shelf.put(key, new Response(page, {headers}));
  })));
});
/* What the server answers ``asked``, a copy kept as ``key`` on the way. */
const keep = (shelf, asked, key) => fetch(asked).then(answer => {
  if (answer.ok && !answer.redirected) shelf.put(key, answer.clone());
  return answer;
});
self.addEventListener("install", () => self.skipWaiting());
/* In control of the pages open now: a table opened first, before this worker was there,
   is kept at once, with its /worth and the files it uses (its own requests never came
   through here). */
self.addEventListener("activate", e => e.waitUntil(self.clients.claim()
  .then(() => Promise.all([caches.open(KEPT), self.clients.matchAll()]))
  .then(([shelf, open]) => Promise.all([...open.map(c => c.url), "static/app.css", "static/app.js", "static/robber.css"]
    .map(u => new URL(u, location.href)).filter(kept).flatMap(u => /\/(table|robber)$/.test(u.pathname) ? [u, worth(u)] : [u])
    .map(u => keep(shelf, u, u.origin + u.pathname).catch(() => null))))));
self.addEventListener("fetch", e => {
  const asked = e.request, url = new URL(asked.url), key = url.origin + url.pathname;
  if (asked.method !== "GET" || !kept(url)) return;
  e.respondWith(caches.open(KEPT).then(shelf => keep(shelf, asked, key).catch(
    () => shelf.match(key, {ignoreVary: true}).then(copy => copy || Response.error()))));
});
