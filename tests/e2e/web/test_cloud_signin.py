"""The cloud sign-in in a real browser: Cognito's hosted UI, authorization code + PKCE.

The site is the one the local stack serves, told by its /config.json (given by the test, as
the deployment writes it) that it runs in the cloud, with the hosted UI at a stand-in
(fake_cognito.py) that checks what Cognito checks: the client, the registered redirect URI,
the S256 challenge against the verifier, one use per code. The production code runs as it is.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests
from playwright.sync_api import Page, Route, expect

from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, accessible_in_both_languages, create_profile
from tests.e2e.web.fake_cognito import FakeHostedUI, s256

RUN = uuid.uuid4().hex[:6]
CLIENT_ID = "tavla-web-test-client"


@pytest.fixture
def hosted_ui(stack: Stack) -> Iterator[FakeHostedUI]:
    ui = FakeHostedUI(client_id=CLIENT_ID, redirect_uri=f"{stack.url}/", mint=stack.token).start()
    yield ui
    ui.stop()


def _cloud_phone(phone: Phone, stack: Stack, ui: FakeHostedUI) -> Page:
    """A phone whose site's /config.json names the hosted UI (no service worker: its caches
    are another test's business)."""
    page = phone(service_workers="block")
    config = {"mode": "cognito", "api": stack.url, "sign_in": ui.url, "client_id": CLIENT_ID}

    def serve(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(config))

    page.route(re.compile(r"/config\.json$"), serve)
    return page


def _to_hosted_ui(page: Page, ui: FakeHostedUI) -> None:
    page.goto("/#/signin")
    expect(page.get_by_text("Συνδέεστε στη σελίδα σύνδεσης του Tavla")).to_be_visible()
    page.locator("main").get_by_role("button", name="Σύνδεση").click()
    page.wait_for_url(f"{ui.url}/oauth2/authorize?**")
    query = parse_qs(urlsplit(page.url).query)
    assert query["code_challenge_method"] == ["S256"] and len(query["code_challenge"][0]) == 43
    assert query["redirect_uri"] == [f"{ui.redirect_uri}"] and query["client_id"] == [CLIENT_ID]


def test_a_player_signs_in_through_the_hosted_ui_with_pkce(
    phone: Phone, stack: Stack, hosted_ui: FakeHostedUI
) -> None:
    """in the cloud, "Sign in" goes to Cognito's hosted UI with an S256 challenge; the
    code that comes back is exchanged with its verifier; the player lands on their profile
    signed in, the API takes the token (a profile is created), the address keeps no code."""
    page = _cloud_phone(phone, stack, hosted_ui)
    page.goto("/#/signin")
    accessible_in_both_languages(page, "main button")
    _to_hosted_ui(page, hosted_ui)
    page.get_by_label("Username").fill(f"cloud-player-{RUN}")
    page.get_by_role("button", name="Sign in").click()

    page.wait_for_url(f"{stack.url}/#/profile")
    expect(page.get_by_role("button", name="Αποσύνδεση")).to_be_visible()
    assert "code=" not in page.url and "state=" not in page.url
    tavla_id = create_profile(page, "Νεφέλη Νεφοσύνδετη")
    assert re.fullmatch(r"[0-9A-Z]{7}", tavla_id)
    assert hosted_ui.issued == [f"cloud-player-{RUN}"] and hosted_ui.refused == []
    [exchange] = hosted_ui.exchanges
    assert exchange["grant_type"] == "authorization_code" and exchange["redirect_uri"] == f"{stack.url}/"
    assert page.evaluate("sessionStorage.getItem('tavla.pkce')") is None  # the verifier is gone
    assert page.evaluate("localStorage.getItem('tavla.token')") is None  # never in localStorage

    # The same code again (a replay from the address bar or a log) gets nothing.
    again = requests.post(f"{hosted_ui.url}/oauth2/token", data=exchange, timeout=10)
    assert again.status_code == 400 and again.json() == {"error": "invalid_grant"}


def test_the_stand_in_checks_the_verifier_and_the_redirect_uri(stack: Stack, hosted_ui: FakeHostedUI) -> None:
    """The stand-in is as strict as Cognito (or the browser test above would prove nothing): a
    verifier that does not hash to the challenge, or another redirect URI, gets no token; an
    unregistered redirect URI or a plain challenge is refused at the authorize step."""
    verifier = "v" * 43
    base = {
        "response_type": "code",
        "client_id": CLIENT_ID,
        "redirect_uri": hosted_ui.redirect_uri,
        "code_challenge_method": "S256",
        "code_challenge": s256(verifier),
        "state": "s1",
    }

    def code() -> str:
        form = requests.get(f"{hosted_ui.url}/oauth2/authorize?{urlencode(base)}", timeout=10)
        assert form.status_code == 200, form.text
        form_id = re.search(r'name="form" value="([^"]+)"', form.text)
        assert form_id
        back = requests.post(
            f"{hosted_ui.url}/login",
            data={"form": form_id.group(1), "username": "u"},
            allow_redirects=False,
            timeout=10,
        )
        location = back.headers["Location"]
        assert location.startswith(hosted_ui.redirect_uri) and parse_qs(urlsplit(location).query)[
            "state"
        ] == ["s1"]
        return parse_qs(urlsplit(location).query)["code"][0]

    def exchange(**changes: str) -> requests.Response:
        body = {
            "grant_type": "authorization_code",
            "client_id": CLIENT_ID,
            "code": code(),
            "redirect_uri": hosted_ui.redirect_uri,
            "code_verifier": verifier,
            **changes,
        }
        return requests.post(f"{hosted_ui.url}/oauth2/token", data=body, timeout=10)

    assert exchange(code_verifier="w" * 43).status_code == 400
    assert exchange(redirect_uri="http://evil.example/").status_code == 400
    assert exchange().status_code == 200
    for wrong in ({"redirect_uri": "http://evil.example/"}, {"code_challenge_method": "plain"}):
        refused = requests.get(f"{hosted_ui.url}/oauth2/authorize?{urlencode({**base, **wrong})}", timeout=10)
        assert refused.status_code == 400
    assert hosted_ui.issued == ["u"]


def test_a_forged_state_is_refused_by_the_site(phone: Phone, stack: Stack, hosted_ui: FakeHostedUI) -> None:
    """CSRF on the redirect: a code that comes back with another state than the one
    this tab sent is never exchanged; the person is told the sign-in failed and stays signed out."""
    page = _cloud_phone(phone, stack, hosted_ui)
    _to_hosted_ui(page, hosted_ui)
    hosted_ui.tamper_state = True
    page.get_by_label("Username").fill(f"cloud-victim-{RUN}")
    page.get_by_role("button", name="Sign in").click()

    page.wait_for_url(f"{stack.url}/#/profile")
    expect(page.get_by_role("alert")).to_have_text("Η σύνδεση απέτυχε")
    expect(page.locator("header").get_by_role("link", name="Σύνδεση")).to_be_visible()
    assert hosted_ui.exchanges == []  # the code was never sent to the token endpoint
    assert page.evaluate("sessionStorage.getItem('tavla.token')") is None
