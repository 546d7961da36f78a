// The Changes page's times in the phone's own time zone and language (the page says UTC without it).
"use strict";
document.querySelectorAll("[data-changes] time[datetime]").forEach((t) => {
  const at = new Date(t.getAttribute("datetime"));
  if (!isNaN(at)) t.textContent = at.toLocaleString(document.documentElement.lang || undefined,
    {dateStyle: "short", timeStyle: "short"});
});
