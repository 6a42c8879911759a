/* clubcomp's service worker: the TD's round pages stay available without a network (docs/offline.md).

   Served as /service-worker.js (scope: the whole site, as a club's pages live under /<club>/) by
   competition.views.offline, which fills in SETTINGS: the version (a hash of this file and of the
   static files kept), the static files' addresses and the offline page. It only ever answers GET
   requests of its own site:
   - static files: from the cache first (the cache's name carries the version, so a deploy starts
     a new one and the old one is deleted);
   - the TD's round pages (attendance, pairing, results, print, summary of a round) and the TD's
     home: from the network first, keeping the latest good answer (200, not redirected) as the
     copy for when there is no network; only the latest round of a competition is kept;
   - any other page: the network, or the offline page when there is none.
   Form posts and fetches of results never come here: they go to the network as always, and
   js/td.js keeps a result that could not be sent. Logging out deletes the kept pages (js/page.js).
   It also shows the push notices members subscribed to (js/push.js; "Bord 3, wit, tegen X") and a
   tap on one opens the member's page (the notice's own address on this site, else SETTINGS'). */
"use strict";

const SETTINGS = {"version": "dev", "static_url": "/static/", "static": [], "offline": "/offline", "member_page": "/me/", "icon": "/static/icons/icon-192.png"};

const PREFIX = "clubcomp-";
const STATIC_CACHE = PREFIX + "static-" + SETTINGS.version;
const PAGE_CACHE = PREFIX + "pages-" + SETTINGS.version;
// .../td/<competition>/<round>/<page>/ (with or without the club's part in front)
const ROUND_PAGE = /^(.*\/td\/[^/]+\/)(\d+)\/(attendance|pairing|results|print|summary)\/$/;
const ROUND = /^(.*\/td\/[^/]+\/)(\d+)\/$/;  // redirects to the round's current step
const TD_HOME = /\/td\/$/;

function keepable(url) {
  return url.origin === self.location.origin && !url.search &&
    (ROUND_PAGE.test(url.pathname) || TD_HOME.test(url.pathname));
}

function goodPage(response) {
  var type = response.headers.get("Content-Type") || "";
  return response.status === 200 && response.type === "basic" && !response.redirected &&
    type.indexOf("text/html") === 0;
}

// Keep a page's answer; for a round page, forget the kept pages of the competition's other rounds.
function keepPage(url, response) {
  return caches.open(PAGE_CACHE).then(function (cache) {
    return cache.put(url.pathname, response).then(function () {
      var round = ROUND_PAGE.exec(url.pathname);
      if (!round) { return null; }
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (request) {
          var other = ROUND_PAGE.exec(new URL(request.url).pathname);
          if (other && other[1] === round[1] && other[2] !== round[2]) {
            return cache.delete(request);
          }
          return null;
        }));
      });
    });
  });
}

function keptPage(pathname) {
  return caches.open(PAGE_CACHE).then(function (cache) { return cache.match(pathname, { ignoreVary: true }); });
}

// The kept copy of a round's address (/td/<competition>/<n>/): its results, pairing or attendance.
function keptRound(pathname) {
  var round = ROUND.exec(pathname);
  if (!round) { return Promise.resolve(undefined); }
  var steps = ["results", "pairing", "attendance"];
  function next(i) {
    if (i >= steps.length) { return Promise.resolve(undefined); }
    return keptPage(pathname + steps[i] + "/").then(function (found) { return found || next(i + 1); });
  }
  return next(0);
}

function offlinePage() {
  return caches.open(STATIC_CACHE).then(function (cache) { return cache.match(SETTINGS.offline, { ignoreVary: true }); })
    .then(function (page) { return page || Response.error(); });
}

function networkFirst(request, url) {
  var network = fetch(request).then(function (response) {
    if (goodPage(response)) {
      var copy = response.clone();
      return keepPage(url, copy).then(function () { return response; }, function () { return response; });
    }
    return response;
  });
  return network.catch(function () {
    return keptPage(url.pathname).then(function (kept) { return kept || offlinePage(); });
  });
}

function networkOrOffline(request, url) {
  return fetch(request).catch(function () {
    return keptRound(url.pathname).then(function (kept) { return kept || offlinePage(); });
  });
}

function cacheFirst(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (response.status === 200) { cache.put(request, response.clone()); }
        return response;
      });
    });
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC_CACHE).then(function (cache) {
    return cache.addAll(SETTINGS.static.concat([SETTINGS.offline]));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.map(function (name) {
      var ours = name.indexOf(PREFIX) === 0;
      return ours && name !== STATIC_CACHE && name !== PAGE_CACHE ? caches.delete(name) : null;
    }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf(SETTINGS.static_url) === 0) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(keepable(url) ? networkFirst(request, url) : networkOrOffline(request, url));
  }
});

// Every page asks for itself (and its round's other pages) to be kept:
// {page: its address, fetchPage: whether to fetch it even when kept, missing: [addresses to
// fetch unless kept]}. fetchPage is true for a page this worker did not serve (opened before the
// worker was in charge); a page the worker served was kept on its way, unless a worker that
// took charge of the page meanwhile (clients.claim) never saw it: then it is fetched now. The
// answer says whether the page is kept ({kept: true}) or not ({kept: false}: the network or the
// server failed, and the page asks again).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (!data.page && !data.missing) { return; }
  function fetchAndKeep(address, onlyMissing) {
    var url = new URL(address, self.location.origin);
    if (!keepable(url)) { return Promise.resolve(true); }
    return keptPage(url.pathname).then(function (kept) {
      if (kept && onlyMissing) { return true; }
      return fetch(url.pathname, { credentials: "same-origin" }).then(function (response) {
        return goodPage(response) ? keepPage(url, response).then(function () { return true; }) : false;
      });
    }).catch(function () { return false; });
  }
  var own = data.page ? fetchAndKeep(data.page, !data.fetchPage) : Promise.resolve(true);
  var linked = (data.missing || []).map(function (a) { return fetchAndKeep(a, true); });
  event.waitUntil(Promise.all([own, Promise.all(linked)]).then(function (done) {
    if (event.source) { event.source.postMessage({ kept: done[0] }); }
  }));
});

// A push notice (competition.services.push): {title, body, url, tag}. A later notice with the same
// tag (the same round) replaces the earlier one.
self.addEventListener("push", function (event) {
  var notice = {};
  if (event.data) {
    try { notice = event.data.json(); } catch (e) { notice = { body: event.data.text() }; }
  }
  var target = new URL(notice.url || SETTINGS.member_page, self.location.origin);
  if (target.origin !== self.location.origin) { target = new URL(SETTINGS.member_page, self.location.origin); }
  event.waitUntil(self.registration.showNotification(notice.title || "clubcomp", {
    body: notice.body || "",
    tag: notice.tag || undefined,
    icon: SETTINGS.icon,
    badge: SETTINGS.icon,
    data: { url: target.href },
  }));
});

// A tap on a notice: the member's page, in a window of this site that shows it already or a new one.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var data = event.notification.data || {};
  var target = data.url || new URL(SETTINGS.member_page, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i += 1) {
      if (windows[i].url === target && "focus" in windows[i]) { return windows[i].focus(); }
    }
    return self.clients.openWindow ? self.clients.openWindow(target) : null;
  }));
});
