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

  // The page's own words for a save that did not happen (the template gives them translated).
  function saying(key) {
    var list = document.getElementById("result-boards");
    return (list && list.dataset[key]) || "";
  }

  function showAnswer(item, body) {
    var message = item.querySelector(".board-message");
    if (body.board) { showBoard(item, body.board); }
    message.textContent = body.ok ? "" : body.message;
    item.classList.toggle("table-warning", !body.ok);
    var missing = document.getElementById("missing-count");
    if (missing && typeof body.missing === "number") { missing.textContent = body.missing; }
    var status = document.getElementById("board-status");
    if (status) { status.textContent = body.ok ? item.querySelector(".saved-line").textContent : body.message; }
    // "conflict": another TD saved the board (the answer shows it); "failed": nothing changed.
    item.dataset.saved = body.ok ? "yes" : (body.board ? "conflict" : "failed");
  }

  function onSubmit(event) {
    var form = event.target;
    if (!form.matches("form[data-board-form]")) { return; }
    var button = event.submitter;
    if (!button || !window.fetch) { return; }  // let the browser post the form
    event.preventDefault();
    var item = form.closest(".result-board");
    var data = new FormData(form);
    data.set("result", button.value);
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    item.querySelector(".board-message").textContent = "";
    fetch(form.action, {
      method: "POST",
      body: data,
      headers: { "X-Requested-With": "fetch", "Accept": "application/json" },
      credentials: "same-origin"
    }).then(function (response) {
      // Every answer stays on this page: a refusal or "busy" says why in JSON; anything else
      // (a server or proxy error page, a lost login) gets the page's own "not saved".
      return response.json().catch(function () { return null; }).then(function (body) {
        var answer = body && typeof body === "object" ? body : {};
        answer.ok = response.ok && answer.ok === true;
        answer.message = answer.ok ? "" : (answer.message || saying("failed"));
        return answer;
      });
    }, function () {
      return { ok: false, message: saying("offline") };
    }).then(function (body) {
      showAnswer(item, body);
    }).finally(function () {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    });
  }

  document.addEventListener("submit", onSubmit);
})();
