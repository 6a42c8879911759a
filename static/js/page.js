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
