/* clubcomp TD pages: the installable app (docs/offline.md). Registers the service worker (its
   address comes with this script's data-service-worker) and asks it to keep this page, and the
   pages linked with data-keep-offline, for when there is no network. A page the worker already
   served was kept on the way; the others (the very first visit) are fetched once more by the worker.
   Also says on the page when the browser is offline (#offline-note). */
(function () {
  "use strict";

  var script = document.currentScript;
  var workerUrl = script && script.dataset.serviceWorker;

  // The note above the page while the browser is offline; its words come with this script.
  function showOnline() {
    var note = document.getElementById("offline-note");
    var main = document.getElementById("main");
    if (!note && main && script && script.dataset.offlineNote) {
      note = document.createElement("div");
      note.id = "offline-note";
      note.className = "alert alert-secondary small py-2";
      note.setAttribute("role", "status");
      note.textContent = script.dataset.offlineNote;
      main.insertBefore(note, main.firstChild);
    }
    if (note) { note.hidden = navigator.onLine; }
  }
  window.addEventListener("online", showOnline);
  window.addEventListener("offline", showOnline);
  showOnline();  // a deferred script: the page is parsed

  if (!workerUrl || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  var scope = new URL(".", new URL(workerUrl, location.href)).pathname;
  // Whether a worker served this page (and kept it on the way), as it was when this script ran.
  // A worker installed just now may take charge of the page (clients.claim) before this script
  // runs, without having seen the page: so a page "served" asks to be kept unless it is already.
  var servedByWorker = Boolean(navigator.serviceWorker.controller);

  function keepPages(worker) {
    var linked = Array.prototype.map.call(
      document.querySelectorAll("[data-keep-offline][href]"),
      function (link) { return new URL(link.getAttribute("href"), location.href).pathname; }
    );
    worker.postMessage({ page: location.pathname, fetchPage: !servedByWorker, missing: linked });
  }

  var asked = 0;  // how often this page asked the worker to keep it
  function askToKeep() {
    return navigator.serviceWorker.ready.then(function (registration) {
      if (navigator.onLine && registration.active) {
        asked += 1;
        keepPages(registration.active);
      }
    });
  }

  navigator.serviceWorker.register(workerUrl, { scope: scope }).then(askToKeep)
    .catch(function () { /* no worker: the pages work as before, only not offline */ });

  // The page marks when the worker has kept it (the browser test waits for this); when the
  // worker could not fetch it (a busy server, a network that came and went), it asks again a
  // few times.
  navigator.serviceWorker.addEventListener("message", function (event) {
    if (!event.data || typeof event.data.kept !== "boolean") { return; }
    if (event.data.kept) {
      document.documentElement.dataset.offlineReady = "yes";
    } else if (asked < 4) {
      window.setTimeout(askToKeep, 1500 * asked);
    }
  });
  navigator.serviceWorker.startMessages();
})();
