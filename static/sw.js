/* Scorekeeper's service worker (app.js registers it; served at /sw.js, so that it sees
   the whole site): the table pages this phone opened and the files they use, kept for
   when the network is gone. Each is asked of the server first and a copy of its answer
   kept on this phone; offline, the copy is the answer: the table as this phone last saw
   it, its plays not sent yet waiting (app.js keeps them in localStorage and sends them,
   in order, once the server answers again). Nothing else is kept: every other page, the
   live changes and every form go to the server, or fail as they would without it. */
"use strict";
const KEPT = "scorekeeper-tables";
const kept = url => url.origin === location.origin && /^(.*\/static\/.+|.*\/g\/[^/]+\/table)$/.test(url.pathname);

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", e => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", e => {
  const asked = e.request, url = new URL(asked.url), key = url.origin + url.pathname;
  if (asked.method !== "GET" || !kept(url)) return;
  e.respondWith(caches.open(KEPT).then(shelf => fetch(asked).then(answer => {
    if (answer.ok && !answer.redirected) shelf.put(key, answer.clone());
    return answer;
  }, () => shelf.match(key, {ignoreVary: true}).then(copy => copy || Response.error()))));
});
