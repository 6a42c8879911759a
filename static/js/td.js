/* clubcomp TD pages: save a board's result without leaving the page (progressive enhancement).
   Without JavaScript the same forms post normally and the server redirects back to the board. */
(function () {
  "use strict";

  function showBoard(item, board) {
    item.querySelector(".result-label").textContent = board.result_label;
    item.querySelector(".saved-line").textContent = board.saved;
    var form = item.querySelector("form[data-board-form]");
    if (!form) { return; }
    form.querySelector("input[name=version]").value = board.version;
    form.querySelectorAll("button[name=result]").forEach(function (button) {
      var chosen = button.value === board.result;
      button.classList.toggle("btn-primary", chosen);
      button.classList.toggle("btn-outline-primary", !chosen);
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
    });
  }

  function onSubmit(event) {
    var form = event.target;
    if (!form.matches("form[data-board-form]")) { return; }
    var button = event.submitter;
    if (!button || !window.fetch) { return; }  // let the browser post the form
    event.preventDefault();
    var item = form.closest(".result-board");
    var message = item.querySelector(".board-message");
    var data = new FormData(form);
    data.set("result", button.value);
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    message.textContent = "";
    fetch(form.action, {
      method: "POST",
      body: data,
      headers: { "X-Requested-With": "fetch", "Accept": "application/json" },
      credentials: "same-origin"
    }).then(function (response) {
      return response.json();
    }).then(function (body) {
      if (body.board) { showBoard(item, body.board); }
      message.textContent = body.ok ? "" : body.message;
      item.classList.toggle("table-warning", !body.ok);
      var missing = document.getElementById("missing-count");
      if (missing && typeof body.missing === "number") { missing.textContent = body.missing; }
      var status = document.getElementById("board-status");
      if (status) { status.textContent = body.ok ? item.querySelector(".saved-line").textContent : body.message; }
      item.dataset.saved = body.ok ? "yes" : "conflict";
    }).catch(function () {
      var hidden = document.createElement("input");  // network trouble: post the plain form
      hidden.type = "hidden"; hidden.name = "result"; hidden.value = button.value;
      form.appendChild(hidden);
      form.submit();
    }).finally(function () {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    });
  }

  document.addEventListener("submit", onSubmit);
})();
