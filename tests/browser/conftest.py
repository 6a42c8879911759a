"""A real browser for browser tests: Debian's Chromium driven by Selenium through the system
chromedriver (never a downloaded browser). Tests are skipped with a clear reason when Chromium
is not installed (`make test` installs it when run as root; CI always has it)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# Phone-sized viewport (a common Android phone in CSS pixels).
PHONE = (412, 915)


def _have_browser() -> bool:
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


@pytest.fixture
def browser(_chromium) -> Iterator[object]:
    """A headless Chromium with a phone-sized window; pages in Dutch unless changed.

    One browser serves the whole session (starting Chromium takes a second or two); each test
    gets it without cookies, with JavaScript on and the phone-sized window."""
    if _chromium.current_url.startswith("http"):
        _chromium.delete_all_cookies()  # the live server's (the one site these tests visit)
    _chromium.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    _chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    _chromium.set_window_size(*PHONE)
    yield _chromium
    for name in os.listdir(_chromium.download_dir):
        os.remove(os.path.join(_chromium.download_dir, name))


@pytest.fixture(scope="session")
def _chromium() -> Iterator[object]:
    if not _have_browser():
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    with _started_chromium() as driver:
        yield driver


@pytest.fixture
def another_phone() -> Iterator[Callable[[], object]]:
    """Start one more phone (a Chromium of its own: its own cookies, so its own login) per
    call, for a test that runs an evening on several phones at once; each quits afterwards."""
    if not _have_browser():
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    with contextlib.ExitStack() as phones:
        yield lambda: phones.enter_context(_started_chromium())


@contextlib.contextmanager
def _started_chromium() -> Iterator[object]:
    """Debian's Chromium, headless, phone-sized, in Dutch, with a profile and a download folder
    of its own (both removed when it quits)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="clubcomp-chromium-")
    downloads = tempfile.mkdtemp(prefix="clubcomp-downloads-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        f"--window-size={PHONE[0]},{PHONE[1]}",
        "--lang=nl",
    ):
        options.add_argument(flag)
    options.add_experimental_option(
        "prefs",
        {
            "download.default_directory": downloads,
            "download.prompt_for_download": False,
            "intl.accept_languages": "nl",
        },
    )
    # the console's messages for driver.get_log("browser") (tests/browser/test_console_errors.py)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.download_dir = downloads  # type: ignore[attr-defined]
    driver.set_page_load_timeout(30)
    driver.implicitly_wait(2)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(downloads, ignore_errors=True)
