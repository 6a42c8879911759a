/* clubcomp attendance page: a live count of present players and a filter on names.
   Progressive enhancement: without JavaScript the whole list shows and the count is the
   saved one; the filter box stays hidden. */
(function () {
  "use strict";

  var form = document.getElementById("attendance-form");
  if (!form) { return; }
  var count = document.getElementById("present-count");
  var rows = Array.prototype.slice.call(form.querySelectorAll(".attendance-row"));

  function fold(text) {
    // Case and accents do not matter: "Mulder" finds "mülder", "ö" matches "o".
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function countPresent() {
    if (count) {
      count.textContent = form.querySelectorAll("input.btn-check[value=present]:checked").length;
    }
  }

  form.addEventListener("change", function (event) {
    if (event.target.matches("input.btn-check")) { countPresent(); }
  });

  var box = document.getElementById("attendance-filter-box");
  var filter = document.getElementById("attendance-filter");
  var empty = document.getElementById("attendance-filter-empty");
  if (!box || !filter) { return; }
  box.hidden = false;
  filter.addEventListener("input", function () {
    var wanted = fold(filter.value.trim());
    var shown = 0;
    rows.forEach(function (row) {
      var match = !wanted || fold(row.dataset.name || "").indexOf(wanted) !== -1;
      row.hidden = !match;
      if (match) { shown += 1; }
    });
    if (empty) { empty.hidden = shown > 0; }
  });
  // Enter in the filter must not post the attendance form.
  filter.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); }
  });
})();
