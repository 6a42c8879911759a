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
  // Whether the worker served this page (and kept it on the way), as it was when the page came:
  // a worker installed just now takes charge of the page later (clients.claim) without having
  // seen it.
  var servedByWorker = Boolean(navigator.serviceWorker.controller);

  function keepPages(worker) {
    var linked = Array.prototype.map.call(
      document.querySelectorAll("[data-keep-offline][href]"),
      function (link) { return new URL(link.getAttribute("href"), location.href).pathname; }
    );
    var here = servedByWorker ? [] : [location.pathname];
    worker.postMessage({ keep: here, missing: linked });
  }

  navigator.serviceWorker.register(workerUrl, { scope: scope }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    if (navigator.onLine && registration.active) { keepPages(registration.active); }
  }).catch(function () { /* no worker: the pages work as before, only not offline */ });

  // The page marks when the worker has kept it (the browser test waits for this).
  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.kept) { document.documentElement.dataset.offlineReady = "yes"; }
  });
  navigator.serviceWorker.startMessages();
})();
