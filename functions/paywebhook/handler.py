"""The payment provider's signed webhook (R3.3): verified, then recorded once."""

from __future__ import annotations

from tavla import clock
from tavla.contract import errors
from tavla.errors import ForgedWebhook, MalformedWebhook, ProviderUnavailable
from tavla.http import make_resolver
from tavla.models.payments import WebhookReceived
from tavla.observability import entry
from tavla.services import payments

app = make_resolver()

SIGNATURE_HEADER = "stripe-signature"


@app.post(
    "/webhooks/payments",
    tags=["payments"],
    responses=errors(ForgedWebhook, MalformedWebhook, ProviderUnavailable),
)
def provider_webhook() -> WebhookReceived:
    """The payment provider's webhook.

    Called by the provider, not by players: the body is verified against its signature
    header (400 `invalid_signature` when forged, altered or stale, and nothing recorded);
    a signed event that is not a well-formed payment (amount not a positive whole number of
    cents, no event id ...) is 400 `invalid_webhook`, nothing recorded. Only a checkout the
    platform started counts, for its player and tournament (another: 200, not recorded). A
    completed checkout is recorded once however often it is delivered; the provider's
    amount is the truth: a difference is flagged, a surplus becomes a refund due, another
    currency is flagged and not counted.
    """
    event = app.current_event
    return payments.provider_webhook(
        event.decoded_body or "", event.headers.get(SIGNATURE_HEADER), clock.now()
    )


handler = entry(app)
