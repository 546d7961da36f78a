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

/* Card picker: with two copies of a card, one cell cycles 0 → 1 → 2 → 0. */
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
    if (!input.checked && !two.checked) { input.checked = true; two.checked = true; }
    else if (!input.checked) { two.checked = false; }
    showCount(input);
  });
  showCount(input);
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

/* New game: the first-dealer choices show the names as they are typed. */
document.querySelectorAll("[data-seat]").forEach(function (input) {
  function show() {
    var radio = document.querySelector("[data-dealer-seat='" + input.getAttribute("data-seat") + "']");
    if (radio) radio.nextElementSibling.textContent = input.value.trim() || "Seat " + (+input.getAttribute("data-seat") + 1);
  }
  input.addEventListener("input", show);
  show();
});
