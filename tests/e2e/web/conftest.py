"""Browser tests of the mobile web front end: Playwright driving Debian's Chromium.

The browser is found by path (`/usr/bin/chromium`, or `$TAVLA_CHROMIUM`): Playwright's own
download is never used. One headless browser for the session, one context per person (a
phone, 360 x 740, Greek, Athens time), against the session's local stack (`stack`), which
serves the front end built from web/ at `/`. Accessibility is checked with axe-core (npm,
injected into the page); screenshots go to docs/screenshots/.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect, sync_playwright

from tests.e2e.client import Client
from tests.e2e.conftest import ROOT, Stack

CHROMIUM = Path(os.environ.get("TAVLA_CHROMIUM", "/usr/bin/chromium"))
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# `make screenshots` points this at docs/screenshots (shown in docs/web.md); a plain test run keeps its
# pictures in build/ so that running the tests leaves the working tree as it was.
SCREENSHOTS = Path(os.environ.get("TAVLA_SCREENSHOTS") or ROOT / "build" / "screenshots")
SITE = ROOT / "web" / "dist"
PHONE: ViewportSize = {"width": 360, "height": 740}
BLOCKING = ("serious", "critical")
# A first call reaches a cold Lambda environment and the machine is shared: wait up to 15 s
# for what a screen must show (Playwright's own default is 5 s).
expect.set_options(timeout=15_000)


def _newest(paths: list[Path]) -> float:
    files = [p for folder in paths for p in [folder, *folder.rglob("*")] if p.is_file()]
    return max((p.stat().st_mtime for p in files), default=0)


@pytest.fixture(scope="session")
def site() -> Path:
    """web/dist, built now when missing or older than its sources or the OpenAPI document."""
    web = ROOT / "web"
    sources = [web / "src", web / "sw.js", web / "index.html", web / "public", web / "vite.config.ts"]
    sources.append(ROOT / "functions" / "openapi" / "openapi.json")
    built = SITE / "index.html"
    if not built.exists() or built.stat().st_mtime < _newest(sources):
        subprocess.run(["npm", "run", "--silent", "web:build"], cwd=ROOT, check=True)
    return SITE


@pytest.fixture(scope="session")
def browser(site: Path) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium is needed at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield launched
        launched.close()


Phone = Callable[..., Page]


@pytest.fixture(scope="session")
def phone(browser: Browser, stack: Stack) -> Iterator[Phone]:
    """`phone()` opens a new phone (its own storage: one person); all are closed at the end."""
    contexts: list[BrowserContext] = []

    def open_phone(**options: Any) -> Page:
        """`base_url=` another stack's URL: a phone on a stack of the test's own."""
        context = browser.new_context(
            **{
                "base_url": stack.url,
                "viewport": PHONE,
                "device_scale_factor": 2,
                "is_mobile": True,
                "has_touch": True,
                "locale": "el-GR",
                "timezone_id": "Europe/Athens",
                **options,
            }
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


def sign_in(page: Page, user: str, organiser: bool = False) -> None:
    """The local sign-in screen: a user name (and the organisers group) -> a token from /dev/token."""
    page.goto("/#/signin")
    page.locator("input[name=user]").fill(user)
    if organiser:
        page.locator("label.check input[type=checkbox]").check()
    page.locator("form button[type=submit]").click()
    page.wait_for_url("**/#/profile")


def federation_club(stack: Stack, name: str) -> str:
    """The federation's club of that name, kept by an admin (made once): players choose it."""
    client = Client(stack)
    found = [c["id"] for c in client.call("GET", "/clubs").body if c["name"] == name]
    if found:
        return str(found[0])
    body = {"name": name, "city": "Αθήνα", "short_name": name[:16]}
    made = client.call("POST", "/admin/clubs", body, user="web-federation-admin", groups=("admins",))
    assert made.status == 201, made.body
    return str(made.body["id"])


def create_profile(page: Page, name: str, club: str = "") -> str:
    """Fill the profile form on #/profile; returns the Tavla ID the API gave."""
    page.locator("input[name=name]").fill(name)
    if club:  # chosen from the federation's clubs, by the name the list shows ("name · city")
        option = page.locator("select[name=club_id] option", has_text=club)
        expect(option).to_have_count(1)
        page.locator("select[name=club_id]").select_option(option.get_attribute("value"))
    page.locator("form button[type=submit]").click()
    tavla_id = page.get_by_test_id("my-tavla-id")
    expect(tavla_id).to_have_text(re.compile(r"^[0-9A-Z]{7}$"))
    return tavla_id.inner_text()


def axe(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
    )
    return [v for v in found if v["impact"] in BLOCKING]


def accessible_in_both_languages(page: Page, ready: str) -> None:
    """0 serious or critical axe violations in Greek and in English; back to Greek after.

    `ready` is a selector that shows the screen has its data (checked after each reload).
    """
    for lang in ("el", "en"):
        use_language(page, lang, ready)
        violations = axe(page)
        assert violations == [], f"{lang} {page.url}: {violations}"
    use_language(page, "el", ready)


def use_language(page: Page, lang: str, ready: str) -> None:
    if page.evaluate("document.documentElement.lang") != lang:
        page.evaluate("lang => localStorage.setItem('tavla.lang', lang)", lang)
        page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator(ready).first).to_be_visible()


def camera_video(text: str, path: Path, width: int = 640, height: int = 480) -> Path:
    """A Y4M video (what Chromium's fake camera plays) of a QR code holding `text`, as the
    pass shows it: black modules on white, centred, with its quiet zone."""
    import segno

    matrix = segno.make(text, error="m").matrix
    quiet = 4
    scale = min(width, height) // (len(matrix) + 2 * quiet)
    side = (len(matrix) + 2 * quiet) * scale
    left, top = (width - side) // 2, (height - side) // 2
    luma = bytearray(b"\xff" * (width * height))
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                for y in range(top + (r + quiet) * scale, top + (r + quiet + 1) * scale):
                    start = y * width + left + (c + quiet) * scale
                    luma[start : start + scale] = b"\x10" * scale
    chroma = b"\x80" * ((width // 2) * (height // 2) * 2)
    frame = b"FRAME\n" + bytes(luma) + chroma
    path.write_bytes(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * 10)
    return path


def screenshot(page: Page, name: str) -> Path:
    """A phone-size screenshot (Greek): <SCREENSHOTS>/<name>.png (`make screenshots`: docs/screenshots)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def registered_player(client: Client, user: str, name: str, tid: str) -> tuple[str, str]:
    """A profile and a registration over HTTP: (Tavla ID, check-in code)."""
    created = client.call("POST", "/players", {"name": name}, user=user)
    assert created.status == 201, created.body
    registered = client.call("POST", f"/tournaments/{tid}/registrations", user=user)
    assert registered.status == 201, registered.body
    return str(created.body["tavla_id"]), str(registered.body["checkin_code"])


LANGUAGES = ("el", "en", "it")


def accessible_in_every_language(page: Page, ready: str) -> None:
    """0 serious or critical axe violations in Greek, English and Italian; back to Greek after."""
    for lang in LANGUAGES:
        use_language(page, lang, ready)
        violations = axe(page)
        assert violations == [], f"{lang} {page.url}: {violations}"
    use_language(page, "el", ready)
