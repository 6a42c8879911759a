/* clubcomp TD pages: save a board's result without leaving the page (progressive enhancement).
   Without JavaScript the same forms post normally and the server redirects back to the board.

   Without a network (the browser says it is offline, or the post cannot reach the server) the
   result is kept in the browser (localStorage, "clubcomp.results-queue"), the board shows it as
   "not yet sent" and a banner counts what waits. When the network is back (the "online" event,
   the page opened with a network, a save that went through) the kept results of this page are
   sent in the order they were entered, each with the board's version as the TD saw it: the
   server refuses one whose board someone else changed meanwhile, and that refusal is shown
   beside the board as always, with the result that was not sent. A lost login (the session or
   the form's CSRF token expired: a 403, or the post sent on to the login page) is not tried
   again with the same token: the results keep waiting, the banner asks the TD to log in again,
   and the page the login returns to sends them. docs/offline.md. */
(function () {
  "use strict";

  var QUEUE_KEY = "clubcomp.results-queue";  // js/page.js deletes it when the TD logs out
  // Try again after a lost post or a refusal that may pass (busy): soon at first (the "online"
  // event may come a moment before the network carries), then less often.
  var RETRY_FIRST_MS = 2000;
  var RETRY_MOST_MS = 30000;

  function showBoard(item, board) {
    item.querySelector(".result-label").textContent = board.result_label;
    item.querySelector(".saved-line").textContent = board.saved;
    var form = item.querySelector("form[data-board-form]");
    if (!form) { return; }
    form.querySelector("input[name=version]").value = board.version;
    pressButton(form, board.result);
  }

  function pressButton(form, result) {
    form.querySelectorAll("button[name=result]").forEach(function (button) {
      var chosen = button.value === result;
      button.classList.toggle("btn-primary", chosen);
      button.classList.toggle("btn-outline-primary", !chosen);
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
    });
  }

  // Set when the server wants a new login: nothing is sent from this page any more (its token
  // is spent); the page the login comes back to sends what waits.
  var loginNeeded = false;

  // The page's own words (the template gives them translated).
  function saying(key) {
    var list = document.getElementById("result-boards");
    return (list && list.dataset[key]) || "";
  }

  function showAnswer(item, body) {
    var message = item.querySelector(".board-message");
    if (body.board) { showBoard(item, body.board); }
    showQueuedBadge(item, false);
    message.textContent = body.ok ? "" : body.message;
    item.classList.toggle("table-warning", !body.ok);
    var missing = document.getElementById("missing-count");
    if (missing && typeof body.missing === "number") { missing.textContent = body.missing; }
    var status = document.getElementById("board-status");
    if (status) { status.textContent = body.ok ? item.querySelector(".saved-line").textContent : body.message; }
    // "conflict": another TD saved the board (the answer shows it); "failed": nothing changed.
    item.dataset.saved = body.ok ? "yes" : (body.board ? "conflict" : "failed");
  }

  // --- results kept while there is no network -------------------------------------------------

  function readQueue() {
    try {
      var queue = JSON.parse(window.localStorage.getItem(QUEUE_KEY) || "[]");
      return Array.isArray(queue) ? queue : [];
    } catch (error) {
      return [];
    }
  }

  function writeQueue(queue) {  // throws when the browser keeps nothing (private mode, full)
    if (queue.length) {
      window.localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
    } else {
      window.localStorage.removeItem(QUEUE_KEY);
    }
  }

  function address(form) { return new URL(form.action, location.href).pathname; }

  function boardForm(url) {
    var forms = document.querySelectorAll("form[data-board-form]");
    for (var i = 0; i < forms.length; i += 1) {
      if (address(forms[i]) === url) { return forms[i]; }
    }
    return null;
  }

  function dropFromQueue(url) {
    try {
      writeQueue(readQueue().filter(function (entry) { return entry.url !== url; }));
    } catch (error) { /* nothing was kept either */ }
  }

  function showQueuedBadge(item, shown) {
    var badge = item.querySelector(".queued-badge");
    if (shown && !badge) {
      badge = document.createElement("span");
      badge.className = "queued-badge badge text-bg-warning ms-2";
      badge.textContent = saying("queued");
      item.querySelector(".result-label").after(badge);
    } else if (!shown && badge) {
      badge.remove();
    }
  }

  function showQueued(item, entry) {
    var form = item.querySelector("form[data-board-form]");
    item.querySelector(".result-label").textContent = entry.label;
    if (form) { pressButton(form, entry.result); }
    showQueuedBadge(item, true);
    item.querySelector(".board-message").textContent = "";
    item.classList.remove("table-warning");
    item.dataset.saved = "queued";
  }

  // Keep the tapped result; a board already waiting keeps its place, its version and the new result.
  function keep(form, button) {
    var url = address(form);
    var queue = readQueue();
    var entry = null;
    queue.forEach(function (kept) { if (kept.url === url) { entry = kept; } });
    if (!entry) {
      entry = {
        url: url,
        version: form.querySelector("input[name=version]").value,
        page: location.pathname,
        title: document.title
      };
      queue.push(entry);
    }
    var item = form.closest(".result-board");
    entry.board = item.id.replace("board-", "");
    entry.result = button.value;
    entry.label = button.textContent.trim();
    entry.entered = new Date().toISOString();
    writeQueue(queue);
    showQueued(item, entry);
    showBanner();
    sendLater();
  }

  function showBanner() {
    var banner = document.getElementById("queue-banner");
    if (!banner) { return; }
    var queue = readQueue();
    var count = banner.querySelector(".queue-count");
    count.textContent = queue.length === 1 ? banner.dataset.one
      : banner.dataset.many.replace("{n}", queue.length);
    var elsewhere = banner.querySelector(".queue-elsewhere");
    elsewhere.textContent = "";
    var pages = {};
    queue.forEach(function (entry) {
      if (!boardForm(entry.url) && !pages[entry.page]) { pages[entry.page] = entry.title || entry.page; }
    });
    Object.keys(pages).forEach(function (page) {
      var link = document.createElement("a");
      link.href = page;
      link.textContent = pages[page];
      var line = document.createElement("li");
      line.append(banner.dataset.elsewhere + " ", link);
      elsewhere.append(line);
    });
    banner.hidden = queue.length === 0;
    banner.dataset.count = String(queue.length);
  }

  function loginPath() {
    var link = document.querySelector("#queue-login a");
    return link ? new URL(link.href, location.href).pathname : null;
  }

  // A 403 (an expired session or CSRF token) or a post sent on to the login page.
  function wantsLogin(response) {
    if (response.status === 401 || response.status === 403) { return true; }
    return response.redirected && new URL(response.url).pathname === loginPath();
  }

  function askLogin() {
    loginNeeded = true;
    clearTimeout(retry);
    var note = document.getElementById("queue-login");
    if (note) { note.hidden = false; }
    showBanner();
  }

  // Post one result; the promise gives
  // {kind: "sent" | "refused" | "failed" | "offline" | "login", body}.
  function post(form, url, result, version) {
    var data = new FormData();
    data.set("csrfmiddlewaretoken", form.querySelector("input[name=csrfmiddlewaretoken]").value);
    data.set("version", version);
    data.set("result", result);
    return fetch(url, {
      method: "POST",
      body: data,
      headers: { "X-Requested-With": "fetch", "Accept": "application/json" },
      credentials: "same-origin"
    }).then(function (response) {
      if (wantsLogin(response)) {
        return { kind: "login", body: { ok: false, message: saying("login") } };
      }
      // Every answer stays on this page: a refusal or "busy" says why in JSON; anything else
      // (a server or proxy error page, a lost login) gets the page's own "not saved".
      return response.json().catch(function () { return null; }).then(function (body) {
        var answer = body && typeof body === "object" ? body : {};
        answer.ok = response.ok && answer.ok === true;
        answer.message = answer.ok ? "" : (answer.message || saying("failed"));
        var kind = answer.ok ? "sent" : (response.status === 409 && answer.board ? "refused" : "failed");
        return { kind: kind, body: answer };
      });
    }, function () {
      return { kind: "offline", body: { ok: false, message: saying("offline") } };
    });
  }

  var sending = false;
  var retry = null;
  var retryMs = RETRY_FIRST_MS;

  // A flaky network does not say when it is back (no "online" event): try again after a while.
  function sendLater() {
    clearTimeout(retry);
    if (loginNeeded) { return; }
    retry = setTimeout(sendQueue, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
  }

  // Send this page's kept results, oldest first; stop at the first that cannot go yet.
  function sendQueue() {
    if (sending || loginNeeded || !navigator.onLine) { return; }
    var waiting = readQueue().filter(function (entry) { return boardForm(entry.url); });
    if (!waiting.length) { showBanner(); return; }
    sending = true;
    clearTimeout(retry);
    function next(i) {
      if (i >= waiting.length) { return Promise.resolve(); }
      var entry = waiting[i];
      var form = boardForm(entry.url);
      var item = form.closest(".result-board");
      return post(form, entry.url, entry.result, entry.version).then(function (outcome) {
        if (outcome.kind === "login") {  // it keeps waiting, untried until the login
          askLogin();
          return null;
        }
        if (outcome.kind === "offline" || outcome.kind === "failed") {
          if (outcome.kind === "failed") {
            item.querySelector(".board-message").textContent = outcome.body.message;
          }
          sendLater();
          return null;
        }
        retryMs = RETRY_FIRST_MS;  // the server answered
        dropFromQueue(entry.url);
        var board = outcome.body.board;
        if (outcome.kind === "refused" && board && board.result === entry.result) {
          // The board has this result already: an earlier post arrived though its answer was
          // lost, or someone entered the same. Nothing for the TD to decide.
          outcome = { kind: "sent", body: { ok: true, board: board, missing: outcome.body.missing } };
        }
        showAnswer(item, outcome.body);
        if (outcome.kind === "refused") {
          // Someone changed the board meanwhile: the board shows theirs, the TD decides.
          var message = item.querySelector(".board-message");
          message.textContent = outcome.body.message + " " +
            saying("notSent").replace("{result}", entry.label);
        }
        return next(i + 1);
      });
    }
    next(0).finally(function () {
      sending = false;
      showBanner();
    });
  }

  function onSubmit(event) {
    var form = event.target;
    if (!form.matches("form[data-board-form]")) { return; }
    var button = event.submitter;
    if (!button || !window.fetch) { return; }  // let the browser post the form
    event.preventDefault();
    var item = form.closest(".result-board");
    if (!navigator.onLine) {
      try { keep(form, button); return; } catch (error) { /* not kept: try the network */ }
    }
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    item.querySelector(".board-message").textContent = "";
    post(form, address(form), button.value, form.querySelector("input[name=version]").value)
      .then(function (outcome) {
        if (outcome.kind === "login") { askLogin(); }
        if (outcome.kind === "offline" || outcome.kind === "login") {
          try { keep(form, button); return; } catch (error) { /* say why it was not saved */ }
        }
        if (outcome.kind !== "failed" && outcome.kind !== "login") { dropFromQueue(address(form)); }  // this tap replaced it
        showAnswer(item, outcome.body);
        showBanner();
        if (outcome.kind === "sent") { sendQueue(); }  // the network is back
      }).finally(function () {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
      });
  }

  // A page opened again (from the kept copy, or after a reload) shows what still waits.
  function showKept() {
    readQueue().forEach(function (entry) {
      var form = boardForm(entry.url);
      if (form) { showQueued(form.closest(".result-board"), entry); }
    });
    showBanner();
    sendQueue();
  }

  // --- the players' own results, followed while the page is open -------------------------------
  // Where the players enter their results, the page asks every few seconds, while it is shown,
  // for every board (competition.views.result_reports.td_results_state) and shows what changed:
  // what the players said (with the one-tap confirmation) and a result saved meanwhile. A board
  // with a result of the TD's still waiting to be sent, or on its way, is left as he has it.
  var FOLLOW_MS = 5000;
  var followTimer = null;

  function waitsForTheTd(form) {
    if (!form) { return false; }
    if (form.querySelector("button:disabled")) { return true; }  // his tap is on its way
    var url = address(form);
    return readQueue().some(function (entry) { return entry.url === url; });
  }

  function followReports(item, html) {
    var shown = item.querySelector(".board-reports");
    if (!html) {
      if (shown) { shown.remove(); }
      return;
    }
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector(".board-reports");
    if (!fresh) { return; }
    if (shown && shown.dataset.state === fresh.dataset.state && shown.textContent === fresh.textContent) { return; }
    if (shown) { shown.replaceWith(fresh); } else { item.firstElementChild.after(fresh); }
  }

  function follow(state) {
    Object.keys(state.boards).forEach(function (gameId) {
      var item = document.querySelector('.result-board[data-game="' + gameId + '"]');
      if (!item) { return; }
      var board = state.boards[gameId];
      var form = item.querySelector("form[data-board-form]");
      if (waitsForTheTd(form)) { return; }
      followReports(item, board.reports);
      var version = form ? form.querySelector("input[name=version]").value : null;
      if (version !== null && version !== String(board.version)) { showBoard(item, board); }
    });
    var missing = document.getElementById("missing-count");
    if (missing && typeof state.missing === "number") { missing.textContent = state.missing; }
  }

  function poll(url) {
    followTimer = null;
    if (document.hidden || loginNeeded) { return; }  // picked up again when the page shows
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        if (!state) { return; }
        follow(state);
        if (state.open) { schedule(url); }
      })
      .catch(function () { schedule(url); });  // no network for a moment: try again later
  }

  function schedule(url) {
    if (followTimer === null) { followTimer = window.setTimeout(function () { poll(url); }, FOLLOW_MS); }
  }

  function followThePlayers() {
    var list = document.getElementById("result-boards");
    var url = list && list.dataset.stateUrl;
    if (!url || !window.fetch) { return; }
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { schedule(url); }
    });
    schedule(url);
  }

  document.addEventListener("submit", onSubmit);
  window.addEventListener("online", function () {
    retryMs = RETRY_FIRST_MS;
    sendQueue();
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showKept);
    document.addEventListener("DOMContentLoaded", followThePlayers);
  } else {
    showKept();
    followThePlayers();
  }
})();
