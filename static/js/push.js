/* clubcomp member's settings: "notify me by push on this phone" (docs/members.md, Web Push).

   Shows each member's push choice (.push-choice, hidden without this script) once the browser
   can receive push. Ticking it asks the browser's permission, subscribes this device with the
   site's VAPID public key (this script's data-public-key) through the service worker that
   js/app.js registers, and posts the subscription to data-subscribe with the page's CSRF token;
   unticking posts it to data-unsubscribe (the site deletes it) and, when no member on this device
   still wants push, ends the browser's subscription too. Which members this device subscribed is
   remembered here (localStorage); a member without devices on the site (data-devices="0", e.g.
   after "stop on every device") is not. The words come with this script's data attributes. */
(function () {
  "use strict";

  var script = document.currentScript;
  if (!script) { return; }
  var words = script.dataset;
  var MEMBERS = "clubcomp.push-members";
  var choices = Array.prototype.slice.call(document.querySelectorAll(".push-choice[data-member]"));
  if (!choices.length) { return; }

  function say(choice, text) {
    var state = choice.querySelector(".push-state");
    if (state) { state.textContent = text || ""; }
  }

  function remembered() {
    try {
      var list = JSON.parse(window.localStorage.getItem(MEMBERS) || "[]");
      return Array.isArray(list) ? list.map(String) : [];
    } catch (e) {
      return [];
    }
  }

  function remember(list) {
    try { window.localStorage.setItem(MEMBERS, JSON.stringify(list)); } catch (e) { /* private mode */ }
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  function post(url, choice, body) {
    var form = choice.closest("form");
    var token = form && form.querySelector("[name=csrfmiddlewaretoken]");
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token ? token.value : "" },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (!response.ok) { throw new Error(answer.error || words.failed); }
        return answer;
      });
    });
  }

  var supported = "serviceWorker" in navigator && "PushManager" in window &&
    "Notification" in window && window.isSecureContext;
  choices.forEach(function (choice) { choice.hidden = false; });
  if (!supported) {
    choices.forEach(function (choice) {
      choice.querySelector("[data-push-toggle]").disabled = true;
      say(choice, words.unsupported);
    });
    return;
  }

  navigator.serviceWorker.ready.then(function (registration) {
    return registration.pushManager.getSubscription().then(function (subscription) {
      var members = subscription ? remembered() : [];
      members = members.filter(function (id) {
        var choice = choices.find(function (c) { return c.dataset.member === id; });
        return !choice || choice.dataset.devices !== "0";
      });
      remember(members);
      choices.forEach(function (choice) {
        var on = members.indexOf(choice.dataset.member) !== -1;
        choice.querySelector("[data-push-toggle]").checked = on;
        say(choice, Notification.permission === "denied" ? words.blocked : (on ? words.on : words.off));
      });
      return registration;
    });
  }).then(function (registration) {
    choices.forEach(function (choice) {
      var toggle = choice.querySelector("[data-push-toggle]");
      toggle.addEventListener("change", function () {
        toggle.disabled = true;
        var done = toggle.checked ? subscribe(registration, choice) : unsubscribe(registration, choice);
        done.then(function (text) {
          say(choice, text);
        }, function (error) {
          toggle.checked = !toggle.checked;
          say(choice, Notification.permission === "denied" ? words.blocked : (error.message || words.failed));
        }).then(function () { toggle.disabled = false; });
      });
    });
  });

  function subscribe(registration, choice) {
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { throw new Error(words.blocked); }
      return registration.pushManager.getSubscription();
    }).then(function (existing) {
      return existing || registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(words.publicKey),
      });
    }).then(function (subscription) {
      var data = subscription.toJSON();
      return post(words.subscribe, choice, {
        member: choice.dataset.member, endpoint: data.endpoint, keys: data.keys,
      });
    }).then(function (answer) {
      var members = remembered().filter(function (id) { return id !== choice.dataset.member; });
      members.push(choice.dataset.member);
      remember(members);
      choice.dataset.devices = "1";
      return answer.message || words.on;
    });
  }

  function unsubscribe(registration, choice) {
    return registration.pushManager.getSubscription().then(function (subscription) {
      if (!subscription) { return { message: words.off }; }
      return post(words.unsubscribe, choice, {
        member: choice.dataset.member, endpoint: subscription.endpoint,
      }).then(function (answer) {
        var members = remembered().filter(function (id) { return id !== choice.dataset.member; });
        remember(members);
        return (members.length ? Promise.resolve(true) : subscription.unsubscribe()).then(function () {
          return answer;
        });
      });
    }).then(function (answer) { return answer.message || words.off; });
  }
})();
