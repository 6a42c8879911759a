"""Switch Chromium's network off and on for a page *and* its service worker (issue 16's test).

Chromium's network emulation (CDP ``Network.emulateNetworkConditions``) belongs to the DevTools
session it is sent to. Selenium's ``execute_cdp_cmd`` talks to the page only: the page's own
fetches fail and ``navigator.onLine`` turns false, but the service worker's fetches still reach
the server (checked with Chromium 156: a reload "offline" came from the network, not from the
worker's cache). So the emulation is sent to the service worker too, over the browser's own
DevTools connection (the ``debuggerAddress`` chromedriver gives), in a session attached to the
worker's target, as Chrome's DevTools do. A worker with DevTools attached is not stopped, so
the emulation holds for the whole test.
"""

from __future__ import annotations

import contextlib
import json
import urllib.request
from typing import Any

import websocket  # websocket-client, which Selenium itself depends on

CONDITIONS = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


class NetworkSwitch:
    def __init__(self, driver: Any, origin: str) -> None:
        self.driver = driver
        self.origin = origin.rstrip("/")
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as answer:
            endpoint = json.load(answer)["webSocketDebuggerUrl"]
        # DevTools refuses a websocket with an Origin header it does not know; send none.
        self.socket = websocket.create_connection(endpoint, timeout=10, suppress_origin=True)
        self.sent = 0
        self.worker_sessions: list[str] = []

    def _command(self, method: str, params: dict | None = None, session: str = "") -> dict:
        self.sent += 1
        message: dict[str, Any] = {"id": self.sent, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:  # events of the attached sessions come in between; skip them
            answer = json.loads(self.socket.recv())
            if answer.get("id") == self.sent:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def _attach_workers(self) -> None:
        if self.worker_sessions:
            return
        targets = self._command("Target.getTargets")["targetInfos"]
        for target in targets:
            if target["type"] == "service_worker" and target["url"].startswith(self.origin):
                attached = self._command(
                    "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
                )
                self.worker_sessions.append(attached["sessionId"])
                self._command("Network.enable", session=attached["sessionId"])
        assert self.worker_sessions, "no service worker of the site is running"

    def set_offline(self, offline: bool) -> None:
        """The worker first, then the page: when the page hears "online" (and sends what it
        kept), the worker is online already."""
        conditions = {"offline": offline, **CONDITIONS}
        self._attach_workers()

        for session in self.worker_sessions:
            self._command("Network.emulateNetworkConditions", conditions, session)
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)

    def close(self) -> None:
        for session in self.worker_sessions:
            with contextlib.suppress(RuntimeError, websocket.WebSocketException):
                self._command("Target.detachFromTarget", {"sessionId": session})
        self.socket.close()
