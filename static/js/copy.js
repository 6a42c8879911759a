/* clubcomp: copy a snippet with one tap.
   A button with data-copy-target="id" copies the text of the element with that id (a readonly
   textarea) and says data-copied for a moment; without the Clipboard API the text is selected
   for the reader to copy himself. */
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy-target]") : null;
    if (!button) { return; }
    var source = document.getElementById(button.dataset.copyTarget);
    if (!source) { return; }
    var text = source.value !== undefined ? source.value : source.textContent;
    var label = button.textContent;
    function done() {
      button.textContent = button.dataset.copied || label;
      window.setTimeout(function () { button.textContent = label; }, 2000);
    }
    function select() {
      if (source.select) { source.focus(); source.select(); }
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, select);
    } else {
      select();
    }
  });
})();
