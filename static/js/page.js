// Small behaviours of every page, without inline handlers (a Content-Security-Policy can then
// forbid inline script): a <select data-autosubmit> sends its form when it changes (the form
// keeps a submit button for readers without JavaScript), a <button data-print> prints the page.
"use strict";

document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-autosubmit]");
  if (select && select.form) {
    select.form.submit();
  }
});

document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});

// Logging out forgets what the TD's pages kept on this device (docs/offline.md): the pages the
// service worker kept (caches named clubcomp-pages-…) and the results not yet sent (js/td.js), after
// asking when results still wait. The logout is posted once they are gone, or could not go.
const RESULTS_QUEUE = "clubcomp.results-queue";

document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-logout]");
  if (!form || form.dataset.cleared) {
    return;
  }
  event.preventDefault();
  let waiting = false;
  try {
    waiting = Boolean(window.localStorage.getItem(RESULTS_QUEUE));
  } catch {
    waiting = false;
  }
  if (waiting && !window.confirm(form.dataset.unsent)) {
    return;
  }
  try {
    window.localStorage.removeItem(RESULTS_QUEUE);
  } catch {
    // nothing was kept
  }
  const cleared = window.caches
    ? window.caches.keys().then((names) =>
        Promise.all(names.filter((n) => n.startsWith("clubcomp-pages-")).map((n) => window.caches.delete(n))),
      )
    : Promise.resolve();
  cleared.catch(() => null).finally(() => {
    form.dataset.cleared = "yes";
    form.submit();
  });
});

// On a phone the rows of a table marked stack-on-phone become blocks whose cells show their
// column's name (css/clubcomp.css). Tables built by django-tables2 carry the names
// (data-label) from the server; for the hand-written tables the names are copied here from the
// table's header row, by column (colspan counted). Without JavaScript those rows still fit the
// screen, without the names.
document.querySelectorAll(".stack-on-phone > table").forEach((table) => {
  const header = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
  if (!header) {
    return;
  }
  const names = [];
  for (const cell of header.cells) {
    for (let span = 0; span < cell.colSpan; span += 1) {
      names.push(cell.textContent.trim());
    }
  }
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        if (!cell.hasAttribute("data-label") && names[column]) {
          cell.setAttribute("data-label", names[column]);
        }
        column += cell.colSpan;
      }
    }
  }
});
