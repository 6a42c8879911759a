/* clubcomp TD pages: ask before a tap replaces a board's result.
   A form marked data-confirm-change="question" asks the question when the tapped button is not
   the result the board already has (the button with aria-pressed="true"). It listens in the
   capture phase, so a refusal stops the post before js/td.js sends it. */
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-confirm-change]")) { return; }
    var button = event.submitter;
    var current = form.querySelector("button[aria-pressed=true]");
    if (!button || !current || current.value === button.value) { return; }
    if (!window.confirm(form.dataset.confirmChange)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();
