/* clubcomp attendance page: who checked in, live. While check-in is open the page asks the
   server every few seconds (competition.views.check_in.td_check_in_state) and gives each row
   that checked in its badge. A row the TD has not touched since the page loaded follows the
   server (a check-in clears an absence); a row he did touch keeps his unsaved mark, which is
   his override. Without JavaScript the badges are those of the page's last load. */
(function () {
  "use strict";

  var box = document.getElementById("check-in");
  var form = document.getElementById("attendance-form");
  if (!box || !form || box.dataset.open !== "1" || !window.fetch) { return; }
  var url = box.dataset.stateUrl;
  var label = box.dataset.checkedInLabel || "";
  var count = document.getElementById("check-in-count");
  var INTERVAL = 4000;
  // The mark each row had from the server, and the rows the TD changed since.
  var known = {};
  var touched = {};

  function rowOf(pid) {
    return form.querySelector('.attendance-row[data-participant="' + pid + '"]');
  }

  function checkedValue(row) {
    var input = row.querySelector("input.btn-check:checked");
    return input ? input.value : null;
  }

  Array.prototype.forEach.call(form.querySelectorAll(".attendance-row"), function (row) {
    known[row.dataset.participant] = checkedValue(row);
  });

  form.addEventListener("change", function (event) {
    var row = event.target.closest && event.target.closest(".attendance-row");
    if (row && event.isTrusted) { touched[row.dataset.participant] = true; }
  });

  function badge(row, at) {
    var legend = row.querySelector("legend");
    if (!legend) { return; }
    var span = legend.querySelector(".check-in-badge");
    if (!span) {
      span = document.createElement("span");
      span.className = "badge text-bg-success check-in-badge";
      legend.appendChild(document.createTextNode(" "));
      legend.appendChild(span);
    }
    span.textContent = label + " " + at;
  }

  function follow(row, pid, mark) {
    if (touched[pid] || known[pid] === mark) { return; }
    known[pid] = mark;
    var input = row.querySelector('input.btn-check[value="' + mark + '"]');
    if (input && !input.checked) {
      input.checked = true;
      // attendance.js recounts the present players on "change"
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  function show(state) {
    state.checked_in.forEach(function (item) {
      var row = rowOf(item.participant);
      if (row) { badge(row, item.at); }
    });
    Object.keys(state.marks).forEach(function (pid) {
      var row = rowOf(pid);
      if (row) { follow(row, pid, state.marks[pid]); }
    });
    if (count) { count.textContent = state.count; }
  }

  var timer = null;

  function poll() {
    timer = null;
    if (document.hidden) { return; }  // picked up again when the page shows
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        if (!state) { return; }
        show(state);
        if (state.open) { schedule(); }
      })
      .catch(function () { schedule(); });  // no network for a moment: try again later
  }

  function schedule() {
    if (timer === null) { timer = window.setTimeout(poll, INTERVAL); }
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { schedule(); }
  });
  schedule();
})();
