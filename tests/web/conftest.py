"""A real `tavern serve` (embedded Redis, no REDIS_URL) on a free port, and Debian's headless
Chromium driven by Playwright for Python (never a downloaded browser)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.service.conftest import free_port, service_env, spawn, wait_healthy

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("chromium is missing: apt-get install chromium (make test does it)")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    port = free_port()
    log = (tmp_path_factory.mktemp("web") / "serve.log").open("wb")
    process = spawn(["serve", "--port", str(port)], service_env(None), log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, process)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="module")
def browser():
    # per module, not per session: Playwright's sync API holds an event loop on the main thread
    # while it is open, and an async test that xdist runs after it on the same worker would fail
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser):
    made = browser.new_context(viewport={"width": 1280, "height": 900})
    made.set_default_timeout(15_000)
    yield made
    made.close()


@pytest.fixture
def page(context, server):
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    # a game's table that throws falls back to the generic one, and says so on the console
    opened.on("console", lambda message: message.text.startswith("table failed") and errors.append(message.text))
    opened.goto(server + "/")
    yield opened
    assert errors == [], f"JavaScript errors in the page: {errors}"


@pytest.fixture
def games(server) -> list[dict]:
    return httpx.get(server + "/v1/games").json()


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where screenshots go: docs/screenshots/ with TAVERN_SCREENSHOTS=1, else a temporary folder."""
    if os.environ.get("TAVERN_SCREENSHOTS") == "1":
        return Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    return tmp_path
