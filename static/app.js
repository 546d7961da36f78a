/* Scorekeeper's small enhancements. Every page works without this script. */
"use strict";
document.documentElement.classList.add("js");

/* Keep the screen awake while a game is open (re-acquired when the page is shown again). */
(function () {
  if (!("wakeLock" in navigator) || !document.querySelector("[data-wake-lock]")) return;
  var lock = null;
  function acquire() {
    if (document.visibilityState !== "visible" || lock) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { lock = null; });
  }
  document.addEventListener("visibilitychange", acquire);
  acquire();
})();

/* Card picker: with two copies of a card left (data-two), one cell cycles 0 → 1 → 2 → 0
   (its second copy's checkbox, added here, is hidden). */
document.querySelectorAll("[data-two]").forEach(function (input) {
  input.parentNode.insertAdjacentHTML("afterend", "<label class=two><input type=checkbox name=" + input.name +
    " value=" + input.value + " data-copy=2><b>" + input.nextElementSibling.textContent + "</b></label>");
});
function secondCopy(input) {
  var next = input.parentNode.nextElementSibling;
  return next && next.classList.contains("two") ? next.querySelector("input") : null;
}
function showCount(input) {
  var two = secondCopy(input);
  input.nextElementSibling.setAttribute("data-count", input.checked && two && two.checked ? "2" : "1");
}
document.querySelectorAll("[data-picker] input:not([data-copy])").forEach(function (input) {
  var two = secondCopy(input);
  if (!two) return;
  input.addEventListener("click", function () {
    if (!input.checked && !two.checked && !two.disabled) { input.checked = true; two.checked = true; }
    else if (!input.checked) { two.checked = false; }
    showCount(input);
  });
  showCount(input);
});

/* The cards picked, in words: "7 of 10 cards: 2♠ 3♠" (as picker.count_line writes them). */
function count(form) {
  form.querySelectorAll("[data-tally]").forEach(function (line) {
    var cards = Array.prototype.map.call(form.querySelectorAll("[name=" + line.getAttribute("data-tally") + "]:checked"),
      function (input) { return input.nextElementSibling.textContent.replace("²", ""); });
    var n = cards.length, of = line.getAttribute("data-expected");
    line.textContent = (of ? n + " of " + of + " cards" : n ? n + " card" + (n > 1 ? "s" : "") : "") + (n ? ": " + cards.join(" ") : "");
  });
}
document.addEventListener("click", function (e) {
  if (e.target.form && e.target.matches("[data-picker] input")) count(e.target.form);
});

/* Live preview: what the picked cards make and score, before confirming. */
document.querySelectorAll("form[data-preview-url]").forEach(function (form) {
  var box = form.querySelector("[data-preview]");
  var confirm = form.querySelector("[data-action=confirm]");
  var timer = null, asked = 0;
  function ask() {
    var data = new FormData(form), query = new URLSearchParams();
    ["player", "meld", "cards"].forEach(function (name) {
      data.getAll(name).forEach(function (v) { query.append(name, v); });
    });
    var mine = ++asked;
    fetch(form.getAttribute("data-preview-url") + "?" + query.toString(), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (mine !== asked) return;
        box.innerHTML = html;
        var ok = box.querySelector("[data-ok]");
        if (confirm) confirm.disabled = !ok || ok.getAttribute("data-ok") !== "1";
      })
      .catch(function () { if (confirm) confirm.disabled = false; });
  }
  function later() { clearTimeout(timer); timer = setTimeout(ask, 120); }
  form.addEventListener("change", later);
  form.addEventListener("click", function (e) { if (e.target.matches("[data-picker] input")) later(); });
  /* Cards still picked when the page comes back (a refused play): ask at once. */
  if (form.querySelector("[data-picker] input:checked")) ask();
  else if (confirm) confirm.disabled = true;
});

/* Live table: every second, ask if another phone changed the game; if so, replace its
   regions (data-region), keeping what is picked here. When the round or game ends, go
   to that screen. Not while this page sends a form (unless still here 30 s on). */
(function () {
  var body = document.body, url = body.getAttribute("data-live");
  if (!url || !window.fetch) return;
  var version = body.getAttribute("data-version"), timer = null, busy = false, leaving = false;
  var form = document.getElementById("play"), hand = document.getElementById("hand");
  var table = body.classList.contains("table-screen"), dirty = false;
  function turn() {
    var section = document.querySelector("[data-turn]");
    return section && section.getAttribute("data-turn");
  }
  function chosen(name) {
    var input = form.querySelector("input[name=" + name + "]:checked");
    return input ? input.value : "";
  }
  function choose(name, value) {
    var found = null;
    form.querySelectorAll("input[name=" + name + "]").forEach(function (input) {
      if (input.value === value && !input.disabled) found = input;
    });
    if (found) found.checked = true;
    return found;
  }
  var own = form && chosen("player") !== turn();
  if (form) form.addEventListener("change", function (e) { if (e.target.name === "player") own = true; });
  if (hand) hand.addEventListener("change", function () { dirty = true; });
  function resume() { leaving = false; poll(); }
  document.addEventListener("submit", function (e) {
    if (!e.defaultPrevented) { clearTimeout(timer); leaving = true; timer = setTimeout(resume, 30000); }
  });

  function update(data) {
    if (data.screen !== body.getAttribute("data-screen") || String(data.round) !== body.getAttribute("data-round")) {
      leaving = true;
      location.assign(data.url);
      return;
    }
    if (!table) {  /* the round end: hands entered on another phone */
      if (!dirty) { leaving = true; location.reload(); }
      return;
    }
    var meld = form && chosen("meld");
    Object.keys(data.regions).forEach(function (name) {
      var old = document.querySelector("[data-region=" + name + "]");
      if (old) old.outerHTML = data.regions[name];
    });
    if (!form) return;
    if (!choose("meld", meld)) choose("meld", "");
    if (!own) choose("player", turn());
    form.querySelectorAll("[data-picker] input").forEach(function (input) {
      var gone = (data.cards[input.value] || 0) < (input.hasAttribute("data-copy") ? 2 : 1);
      input.disabled = gone && !input.checked;  /* never unpick: the preview says why */
      input.parentNode.classList.toggle("gone", gone);
    });
    if (form.querySelector("[data-picker] input:checked")) form.dispatchEvent(new Event("change"));
  }
  function poll() {
    if (leaving) return;  /* its timer, if any, is resume's */
    clearTimeout(timer);
    if (busy || document.hidden) return;
    busy = true;
    fetch(url + "?since=" + version, {credentials: "same-origin"})
      .then(function (r) { return r.status === 200 ? r.json() : null; })
      .then(function (data) { if (data && !leaving) { version = data.version; update(data); } })
      .catch(function () {})
      .then(function () { busy = false; if (!leaving) timer = setTimeout(poll, 1000); });
  }
  document.addEventListener("visibilitychange", poll);
  timer = setTimeout(poll, 1000);
})();

/* New game: the first-dealer choices show the names as they are typed. */
document.querySelectorAll("[data-seat]").forEach(function (input) {
  function show() {
    var radio = document.querySelector("[data-dealer-seat='" + input.getAttribute("data-seat") + "']");
    if (radio) radio.nextElementSibling.textContent = input.value.trim() || "Seat " + (+input.getAttribute("data-seat") + 1);
  }
  input.addEventListener("input", show);
  show();
});

/* New game: a tap on a name played here before seats that player in the next empty seat. */
(function () {
  var box = document.querySelector("[data-quick-pick]");
  if (!box) return;
  box.hidden = false;
  box.addEventListener("click", function (event) {
    var button = event.target.closest("[data-pick-name]");
    if (!button) return;
    var name = button.getAttribute("data-pick-name");
    var seats = Array.prototype.slice.call(document.querySelectorAll("[data-seat]"));
    if (seats.some(function (s) { return s.value.trim().toLowerCase() === name.toLowerCase(); })) return;
    var empty = seats.filter(function (s) { return !s.value.trim(); })[0];
    if (!empty) return;
    empty.value = name;
    empty.dispatchEvent(new Event("input", { bubbles: true }));
  });
})();
