/* Scorekeeper's small enhancements. Every page works without this script. */
"use strict";
document.documentElement.classList.add("js");
const $ = (s, r = document) => r.querySelector(s), $$ = (s, r = document) => [...r.querySelectorAll(s)];
const body = document.body, on = (e, t, f) => e.addEventListener(t, f), ss = sessionStorage;
/* The page's words, {name} filled in (the script has none). */
const fill = (t, o) => (t || "").replace(/\{(\w+)\}/g, (m, k) => k in o ? o[k] : m);
const store = (s, k, v) => { try { if (v === undefined) return JSON.parse(s.getItem(k)); v ? s.setItem(k, JSON.stringify(v)) : s.removeItem(k); } catch {} };

/* Keep the screen awake while a game is open. */
if (navigator.wakeLock && $("[data-wake-lock]")) {
  let lock;
  const awake = () => { if (!document.hidden && !lock) navigator.wakeLock.request("screen").then(l => { lock = l; l.onrelease = () => { lock = null; }; }, () => {}); };
  on(document, "visibilitychange", awake);
  awake();
}

/* Table pages kept for offline (sw.js). */
if (navigator.serviceWorker) navigator.serviceWorker.register(new URL("sw.js", $("link[rel=manifest]").href)).catch(() => {});

/* Two decks: a second copy's cell, shown once picked (data-one: no copy left). */
$$("[data-second] input:not([data-one],[data-copy])").forEach(i => i.parentNode.nextElementSibling?.matches(".two") || i.parentNode.insertAdjacentHTML("afterend", `<label class=two><input type=checkbox name=${i.name} value=${i.value} data-copy=2 aria-label="${fill(i.closest("[data-second]").dataset.second, {card: i.getAttribute("aria-label")}).replace(/"/g, "&quot;")}"><b>${i.nextElementSibling.textContent}²</b></label>`));

/* The cards picked, in words (picker.count_line). */
const picked = (f, name = "cards") => $$(`[name=${name}]:checked`, f).map(i => i.nextElementSibling.textContent.replace("²", ""));
const count = f => $$("[data-tally]", f).forEach(p => {
  const c = picked(f, p.dataset.tally), n = c.length, w = (p.closest("[data-bar]") || p).dataset;
  p.textContent = fill(n ? (n == 1 && w.countOne) || w.countMany : w.countNone, {n, cards: c.join(" ")});
});
on(document, "click", e => {  /* unpicked: its copy too */
  const i = e.target, n = i.matches("[data-picker] input:not([data-copy])") && !i.checked && i.parentNode.nextElementSibling;
  if (n && n.matches(".two")) n.firstElementChild.checked = false;
  if (i.form && i.matches("[data-picker] input")) count(i.form);
});

/* A play's answer: in the bar, else on top; carried to the next page. */
const say = html => {
  $$("[data-flash],[data-error]").forEach(e => e.remove());
  let slot = $("[data-said]");
  if (!slot) (slot = document.createElement("div")).dataset.said = "", ($("[data-bar]") || $("main")).prepend(slot);
  slot.innerHTML = say.last = html || "";
};
if (store(ss, "said")) say(store(ss, "said")), store(ss, "said", null);

/* Live preview of the picks (box.dataset.asked: which). */
const asked = form => { const data = new FormData(form); return new URLSearchParams(["player", "meld", "cards"].flatMap(k => data.getAll(k).map(v => [k, v]))) + ""; };
$$("form[data-preview-url]").forEach(form => {
  const box = $("[data-preview]", form), ok = $("[data-action=confirm]", form);
  let timer, last = 0;
  const ask = () => {
    const query = asked(form), mine = ++last;
    fetch(form.dataset.previewUrl + "?" + query)
      .then(r => r.ok ? r.text() : Promise.reject())
      .then(html => { if (mine === last) box.innerHTML = html, box.dataset.asked = query, ok && (ok.disabled = !$("[data-ok='1']", box)); })
      .catch(() => mine === last && (box.innerHTML = box.dataset.asked = "", ok && (ok.disabled = false)));
  };
  form.later = () => { clearTimeout(timer); timer = setTimeout(ask, 120); };
  on(form, "change", form.later);
  if ($("[data-picker] :checked", form)) ask();
  else if (ok) ok.disabled = true;
});

/* The table, live: changes (pushed, else polled) replace its regions; picks stay. Plays
   go in the background, in order, with a request id, kept in localStorage till answered.
   Not indented: the page has a byte budget. */
(() => {
const {live, events} = body.dataset, table = body.matches(".table-screen"), form = $("#play");
if (!live) return;
const rid = () => crypto.getRandomValues(new Uint32Array(3)).join("-");
const local = localStorage, WAIT = "waiting " + live, PICKS = "picks " + live, unsent = body.dataset.unsent || "…";
let told = "", version = +body.dataset.version, timer, busy, leaving, dirty, sending, next, stream, held, polling = !events || !window.EventSource;
let queue = (table && store(local, WAIT)) || [], stuck = queue.length > 0;
queue.forEach(q => q.waited = true);
const turn = (s = $("[data-turn]")) => s && (s.dataset.plays || s.dataset.turn);
const chosen = (name, i = $(`[name=${name}]:checked`, form)) => i ? i.value : "";
const choose = (name, v) => { const i = $$(`[name=${name}]`, form).find(i => i.value === v && !i.disabled); if (i) i.checked = true; return i; };
const cells = () => $$("[data-picker] input", form), any = () => $("[data-picker] :checked", form);
/* A copy of a card in a play waiting: its second copy's cell goes, else the card's. */
const used = c => { const i = $(`[data-picker] [value="${c}"]`, form), t = i?.parentNode.nextElementSibling; t?.matches(".two") ? t.remove() : i && (i.disabled = true); };
/* Who plays: this phone's (data-me), else whose turn; a choice holds one play. */
const ours = (m = form && $("[data-me]", form)) => m ? m.dataset.me : turn();
let own = form && chosen("player") !== ours();
on(document, "change", e => { if (e.target.form && e.target.form.id === "hand") dirty = true; });
/* Waiting plays move the turn: a pass, a renege */
const passOn = (s = $("[data-turn]"), b = $("[data-action=pass]"), p = $$("[name=player]", form).map(i => i.value), x = JSON.parse(s.dataset.out || "[]"), o = (n, k = p.length) => --k && x.includes(n = p[(p.indexOf(n) + 1) % p.length]) ? o(n, k) : n, t = o(s.dataset.turn), h = $("[data-says]", s)) => {
  if (b) s.dataset.turn = $("[name=turn]", s).value = t, h.textContent = fill(h.dataset.says, {player: t}),
    b.firstChild.data = fill(b.dataset.says, {player: o(t)}) + " ", own || choose("player", ours()),
    $$("[data-scores] th[data-player]").forEach(c => c.ariaCurrent = c.dataset.player == t || null);
};
const moves = (q, s = $("[data-turn]"), p = new URLSearchParams(q.body)) => s && form && (p.get("action") == "renege" ? (s.dataset.out = JSON.stringify([...JSON.parse(s.dataset.out || "[]"), p.get("player")]), delete s.dataset.plays, $$("[data-pending-take],form", s).forEach(e => e.hidden = !e.action)) : /\/pass$/.test(q.url) && p.get("turn") === s.dataset.turn && !p.has("cards") && passOn());
const passes = () => queue.forEach(q => moves(q));
/* Picks restored: page reopened, or play refused. */
const keep = () => store(local, PICKS, any() && new URLSearchParams(new FormData(form)) + "");
const pick = sent => {
  for (const [k, v] of new URLSearchParams(sent)) {  /* one gone: the preview says */
    const i = $$(`[name=${k}]`, form).find(i => i.value === v && !i.checked && (!i.disabled || i.type === "checkbox"));
    if (i) i.checked = true, i.disabled = false;
  }
  own = chosen("player") !== ours();
  count(form);
  form.later();
  keep();
};
const go = (url, mine) => {
  if (queue.length) return void (next = url);  /* waiting plays first */
  leaving = true;
  store(ss, "said", (mine && say.last) || null);
  location.assign(url);
};
/* New regions; <template data-k>: a piece the page has. */
const swap = regions => {
  const mine = {}, todo = [];
  $$("[data-region] [data-k]").forEach(e => mine[e.dataset.k] = e);
  for (const name in regions) {
    const old = $(`[data-region=${name}]`), t = document.createElement("template");
    if (!old) continue;
    t.innerHTML = regions[name];
    for (const m of $$("template[data-k]", t.content)) {
      const e = m.dataset.k.split(" ").map(k => mine[k]);
      if (!e.every(Boolean)) return;
      todo.push(() => m.replaceWith(...e));
    }
    todo.push(() => old.replaceWith(t.content));
  }
  return todo.map(f => f());
};
let asking;  /* the payload whole */
const whole = mine => asking || (asking = fetch(live + "?whole=1").then(r => r.ok && r.json()).then(d => d && update(d, mine), () => {}).then(() => asking = null));
const update = (data, mine) => {
  if (data.version < version) return;
  const newer = data.version > version;
  const elsewhere = data.round + "" !== body.dataset.round || (data.screen !== body.dataset.screen && data.url !== location.pathname);
  if (elsewhere || !table) body.dataset.version = version = data.version;
  if (elsewhere) return go(data.url, mine);
  if (!table) return void (newer && !dirty && go(location.href));  /* hands entered elsewhere */
  const meld = form && chosen("meld");
  if (newer && ((data.base && version < data.base) || !swap(data.regions))) return void whole(mine);
  body.dataset.version = version = data.version;
  if (form) cells().forEach(i => {
    const gone = (data.cards[i.value] || 0) < (i.dataset.copy ? 2 : 1);
    i.disabled = gone && !i.checked;  /* never unpicked */
    i.parentNode.classList.toggle("gone", gone);
  });
  if (newer) {
    body.dataset.screen = data.screen;
    keepPage();
    if ("turn" in data.regions) passes();
    mark();
    if (form && !choose("meld", meld)) choose("meld", "");
    if (form && !own) choose("player", ours());
  }
  if (form && any()) form.later();
};
/* The page as the server has it, for a reload offline */
const keepPage = (worker = navigator.serviceWorker && navigator.serviceWorker.controller) => { try {
  const copy = document.documentElement.cloneNode(true);
  $$("[data-waiting],[data-waited],[data-flash],[data-error],[data-preview]>*", copy).forEach(e => e.remove());
  $$("[name=player]", copy).forEach(i => i.toggleAttribute("checked", i.value == ours()));
  worker.postMessage({page: "<!DOCTYPE html>\n" + copy.outerHTML, url: location.href});
} catch {} };  /* none kept */
/* Held while a play is sent or a page loads */
const heard = data => { if (leaving || sending) held = data; else if (data.version > version) update(data); };
const flush = () => { const h = held; held = null; if (h) heard(h); };
const listen = () => {
  if (polling || stream || document.hidden) return;
  let open;
  const s = stream = new EventSource(events + "?since=" + version);
  s.onopen = () => open = 1;
  on(s, "change", e => heard(JSON.parse(e.data)));
  on(s, "bye", () => { s.close(); stream = null; listen(); });
  s.onerror = () => { if (!open || s.readyState > 1) s.close(), stream = null, polling = true, later(); };
};
/* Waiting plays: drawn among the melds, added to the round's scores (totals: rounds ended):
   the preview's, else data-worth (/worth: a new meld's) as games/worth.py reads it. */
const num = t => +t.replace("−", "-"), shown = n => n < 0 ? "−" + -n : n + "";
let book;
form && fetch(live.replace(/live$/, "worth")).then(r => r.json()).then(d => book = d, () => {});
const gains = (p, meld, cs, w = (meld ? JSON.parse($(`[name=meld][value="${meld}"]`, form)?.dataset.worth || 0) : book) || {}) => {
  const on = queue.filter(q => meld && q.meld == meld), had = on.flatMap(q => q.cs), all = cs.concat(had), to = new Map(w.to).get(p) || [p], m = {__proto__: null, ...!on[0] && w.moves?.[p]};
  let n = had.length, s = w.plays?.[[...cs].sort().join(" ")];
  if (w.map) w = {steps: w};
  s ??= cs.reduce((t, c, _, a, e = w.cards?.[c] || []) => t + (w.steps ? w.steps[n++] : all.indexOf(c) < all.lastIndexOf(c) && w.once?.includes(c) ? NaN : e.find(e => e.slice(1).every(x => all.includes(x)))?.[0]), 0);
  if (isNaN(s) || w.moves && on.some(q => !to.includes(q.player))) return null;
  to.forEach(c => m[c] = ~~m[c] + s);
  return m;
};
const mark = () => {
  $$("[data-waited]").forEach(e => e.remove());
  $$("td[data-was]").forEach(td => { td.textContent = td.dataset.was; delete td.dataset.was; });
  if (!queue.some(q => q.waited)) return;
  const add = {__proto__: null}, melds = $("[data-melds]"), note = ` (${unsent})`, doubt = queue.some(q => /renege|undo/.test(q.url + q.body) || q.player && !q.moves);
  queue.forEach(q => {
    if (!q.player) return;
    for (const p in q.moves) add[p] = (add[p] || 0) + q.moves[p];
    const at = q.meld && melds && $(`[data-meld="${CSS.escape(q.meld)}"]`, melds), line = document.createElement(at ? "small" : "p");
    line.dataset.waited = "", line.textContent = at ? ` + ${q.cards}${note}` : q.text + note;
    if (melds) (at ? at.nextElementSibling : melds).append(line);
  });
  $$("td[data-round-score]").forEach(td => {
    const p = td.dataset.roundScore;
    if (p in add || doubt) td.dataset.was = td.textContent, td.textContent = shown(num(td.textContent) + ~~add[p]) + (doubt ? "+?" : "");
  });
};
const draw = () => {
  if (table) store(local, WAIT, queue.length && queue);
  $$("[data-waiting]").forEach(e => e.remove());
  mark();
  if (!queue.some(q => q.waited)) return;
  const strip = $("[data-region=scores]");  /* under the strip */
  (strip || $(".links")).insertAdjacentHTML(strip ? "afterend" : "beforebegin", "<section class=waiting data-waiting aria-live=polite><h2></h2><p class=help></p><ol></ol></section>");
  const [h, p, ol] = $("[data-waiting]").children;
  h.textContent = unsent, p.textContent = body.dataset.unsentHelp || "";
  queue.forEach(q => ol.append(Object.assign(document.createElement("li"), {textContent: q.text})));
};
const pump = () => {
  if (sending || !queue.length) return;
  sending = true;
  const item = queue[0], stop = new AbortController(), slow = setTimeout(() => stop.abort(), 30000);
  fetch(item.url, {method: "POST", body: new URLSearchParams(item.body + (item.waited && item.at >= 0 ? "&seen=" + item.at : "")), signal: stop.signal, headers: {Accept: "application/json"}})
    .then(r => /json/.test(r.headers.get("Content-Type")) ? r.json() : r.status > 501 ? Promise.reject() : r.text().then(t => ({error: !r.ok, said: r.ok ? "" : `<p class=error role=alert data-error>${(d => ($("main p", d) || d.body).innerHTML)(new DOMParser().parseFromString(t, "text/html"))}`})))
    .then(data => {
      queue.shift();
      stuck = false;
      if (!data.error && data.version == item.at + 1) queue.forEach(q => q.at = data.version);  /* it alone moved it on */
      draw();
      if (data.error) told += data.said;  /* till the plays after it are answered */
      if (data.error && /pass|renege/.test(item.url + item.body)) version = 0;  /* redraw the turn */
      say(data.error ? told : told + data.said);
      if (data.regions) update(data, true);
      if (item.picks && data.error && !item.waited) pick(item.body);
      if (!leaving) body.dataset.sent = (+body.dataset.sent || 0) + 1;
    }, () => { stuck = true; queue.forEach(q => q.waited = true); draw(); })  /* no answer: again later */
    .then(() => { clearTimeout(slow); sending = false; if (!queue.length) told = ""; if (queue.length && !stuck) pump(); else if (next && !queue.length) go(next, true); else if (!leaving) flush(), later(); });
};
on(document, "submit", e => {
  const f = e.target, b = e.submitter, confirm = b && b.dataset.action === "confirm", k = f.elements;
  /* a live region's form: token, id */
  if (k.csrf_token && !k.csrf_token.value) k.csrf_token.value = $("meta[name=csrf-token]").content;
  if (k.request_id && !k.request_id.value) k.request_id.value = rid();
  if (!table || !b || !(b.name == "card" || /^(confirm|pass|undo|out|take|stock|renege)$/.test(b.dataset.action))) {
    clearTimeout(timer);  /* a page load: not live (30 s at most) */
    leaving = true;
    return void (timer = setTimeout(() => { leaving = false; poll(); }, 30000));
  }
  e.preventDefault();
  const data = new FormData(f);
  if (b.name) data.append(b.name, b.value);
  data.set("request_id", rid());
  const pass = b.dataset.action == "pass", still = pass && form ? $$("[data-picker] :checked", form) : [];
  const tap = b.name == "card" && b.value || pass;  /* double tap: once */
  if (tap && tap === body.tap && e.timeStamp - body.at < 700) return;
  body.tap = tap, body.at = e.timeStamp;
  still.forEach(i => data.append("cards", i.value));
  const play = confirm ? picked(f).join(" ") : b.textContent.replace(/\s*[(→][^]*/, "").trim();
  own = false;
  const item = {url: new URL(b.getAttribute("formaction") || f.getAttribute("action"), location).pathname, body: new URLSearchParams(data) + "",
    text: f === form ? fill(body.dataset.queued, {player: chosen("player"), play}) : play, at: version, waited: stuck};
  if (b.dataset.action == "renege") cells().forEach(i => i.checked = false), count(f), keep();
  if (confirm) {  /* sent: the picker is free for the next play */
    const seen = $("[data-preview]", f), ok1 = seen && seen.dataset.asked === asked(f) && $("[data-ok='1']", seen);
    const player = chosen("player"), meld = chosen("meld"), cs = $$("[data-picker] :checked", f).map(i => i.value);
    Object.assign(item, {picks: 1, player, meld, cs, cards: play, moves: ok1 && !queue[0] ? JSON.parse(ok1.dataset.moves) : gains(player, meld, cs)});
    const off = stuck || !navigator.onLine;  /* online, the answer says what is left */
    cells().forEach(i => { if (i.checked) i.disabled = !off, i.checked = false; }), off && cs.forEach(used);
    b.disabled = true;  /* nothing picked */
    choose("meld", "");
    seen.textContent = "";
    count(f);
    keep();
  }
  queue.push(item);
  moves(item);
  draw();
  pump();
});
on(window, "beforeunload", e => { if (queue.length) e.preventDefault(), e.returnValue = ""; });
on(window, "online", pump);
function later() { clearTimeout(timer); if (polling || stuck) timer = setTimeout(poll, 1000); }
function poll() {
  if (leaving) return;
  clearTimeout(timer);
  if (busy || sending || document.hidden) return;
  flush();
  if (!polling) return void (listen(), pump());
  busy = true;
  fetch(live + "?since=" + version)
    .then(r => r.status === 200 ? r.json() : null)
    .then(data => { if (data) heard(data); })
    .catch(() => {})
    .then(() => { busy = false; if (!leaving) later(), pump(); });
}
if (form) {
  queue.forEach(q => q.cs?.forEach(used));  /* a page reloaded: its cards taken */
  const p = store(local, PICKS);
  if (p && new URLSearchParams(p).get("round_no") === body.dataset.round && !any()) pick(p);
  count(form);
  on(form, "change", e => { if (e.target.name === "player") own = true; if (e.target.matches("[data-picker] input")) say(); keep(); });
}
passes();
draw();
on(document, "visibilitychange", () => { if (document.hidden && stream) stream.close(), stream = null; poll(); });
listen();
queue.length ? pump() : later();
})();
