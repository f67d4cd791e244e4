"""The payment provider's signed webhook (R3.3): verified, then recorded once."""

from __future__ import annotations

from tavla import clock
from tavla.contract import errors
from tavla.errors import ForgedWebhook, ProviderUnavailable
from tavla.http import make_resolver
from tavla.models.payments import WebhookReceived
from tavla.observability import entry
from tavla.services import payments

app = make_resolver()

SIGNATURE_HEADER = "stripe-signature"


@app.post("/webhooks/payments", tags=["payments"], responses=errors(ForgedWebhook, ProviderUnavailable))
def provider_webhook() -> WebhookReceived:
    """The payment provider's webhook.

    Called by the provider, not by players: the body is verified against its signature
    header (400 `invalid_signature` when forged, altered or stale, and nothing recorded). A
    completed checkout is recorded once however often it is delivered; the provider's
    amount is the truth, a difference from the checkout is flagged.
    """
    event = app.current_event
    return payments.provider_webhook(
        event.decoded_body or "", event.headers.get(SIGNATURE_HEADER), clock.now()
    )


handler = entry(app)
