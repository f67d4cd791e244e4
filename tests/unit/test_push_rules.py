"""Where a notice may be pushed, when it goes by SMS too, and the VAPID key from its seed."""

from __future__ import annotations

import base64

from hypothesis import given
from hypothesis import strategies as st

from tavla import webpush
from tavla.rules.push import endpoint_allowed, wants_sms


def test_only_push_services_over_https_are_endpoints() -> None:
    """The server posts only to browsers' push services: never a URL a client made up."""
    assert endpoint_allowed("https://fcm.googleapis.com/fcm/send/abc")
    assert endpoint_allowed("https://updates.push.services.mozilla.com/wpush/v2/abc")
    assert endpoint_allowed("https://web.push.apple.com/QGx")
    assert endpoint_allowed("https://fcm.googleapis.com:443/x")
    for refused in (
        "http://fcm.googleapis.com/x",
        "https://fcm.googleapis.com.evil.example/x",
        "https://evilfcm.googleapis.com.example/x",
        "https://notfcm.googleapis.com.example/x",
        "https://a:b@fcm.googleapis.com/x",
        "https://fcm.googleapis.com:8443/x",
        "https://127.0.0.1/x",
        "https://[::1/x",
        "ftp://fcm.googleapis.com/x",
    ):
        assert not endpoint_allowed(refused), refused
    assert endpoint_allowed("http://127.0.0.1:9000/p/1", ["http://127.0.0.1:9000"])
    assert not endpoint_allowed("http://127.0.0.1:9001/p/1", ["http://127.0.0.1:9000"])


@given(st.booleans(), st.sampled_from([None, "", "+306971234567"]), st.booleans())
def test_sms_only_for_those_who_chose_it_and_whom_no_browser_reached(
    opted_in: bool, phone: str | None, pushed: bool
) -> None:
    """R6.2: an SMS costs cents: only by choice, with a number, when push did not reach them."""
    assert wants_sms(opted_in, phone, pushed) == (opted_in and bool(phone) and not pushed)


@given(st.text(min_size=1, max_size=80))
def test_any_seed_is_a_valid_private_key(seed: str) -> None:
    """The generated secret always makes a key: a scalar in [1, n-1], a 65-byte public point."""
    assert 1 <= webpush.private_value(seed) < webpush.ORDER
    point = base64.urlsafe_b64decode(webpush.public_key_of(seed) + "=")
    assert len(point) == 65 and point[0] == 4


def test_the_same_seed_is_the_same_key_and_another_is_another() -> None:
    assert webpush.public_key_of("seed-a") == webpush.public_key_of("seed-a")
    assert webpush.public_key_of("seed-a") != webpush.public_key_of("seed-b")
