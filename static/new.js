/* The new-game page's enhancements (the page works without them), after app.js, whose
   helpers ($, $$, on) it uses: kept apart so the table page's script stays small. */
"use strict";
/* New game: the first-dealer choices show the names as they are typed; a tap on a name
   played here before seats that player in the next empty seat. */
const seats = $$("[data-seat]"), quick = $("[data-quick-pick]");
seats.forEach(input => {
  const r = $(`[data-dealer-seat='${input.dataset.seat}']`), seat = r && r.nextElementSibling.textContent;  /* "Seat 1", in the page's words */
  const show = () => { if (r) r.nextElementSibling.textContent = input.value.trim() || seat; };
  on(input, "input", show);
  show();
});
if (quick) quick.hidden = false, on(quick, "click", e => {
  const b = e.target.closest("[data-pick-name]"), name = b && b.dataset.pickName.toLowerCase();
  const empty = name && !seats.some(s => s.value.trim().toLowerCase() === name) && seats.find(s => !s.value.trim());
  if (empty) empty.value = b.dataset.pickName, empty.dispatchEvent(new Event("input", {bubbles: true}));
});
/* The rules line says what is changed as the rules are changed, as the server says it of a
   form sent back (forms.rules_line): each rule against its default (data-default). */
const line = $("[data-rules-line]");
if (line) on(line.closest("details"), "input", () => {
  const d = line.dataset, changed = $$("[data-rule]").map(r => {
    const picked = $(":checked", r), number = $("input[type=number]", r);
    const value = picked ? picked.value : number ? number.value.trim() || r.dataset.default : r.dataset.default;  /* empty: the default */
    if (value === r.dataset.default) return "";
    const words = picked ? picked.nextElementSibling.textContent : value || d.none;
    return fill(d.pair, {rule: r.dataset.title, value: words[0].toLowerCase() + words.slice(1)});
  }).filter(Boolean);
  $("[data-rules-text]", line).textContent = changed.length ? fill(d.changed, {rules: d.base, changes: changed.join(", ")}) : d.base;
});
