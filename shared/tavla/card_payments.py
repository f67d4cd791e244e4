"""Card payments online (R3.3) behind a small interface, so another provider can be added.

`CardProvider` is what the services use: start a checkout for an amount, verify a webhook
and read the paid amount from it, refund a payment. `StripeProvider` does it with the
`stripe` SDK: a Checkout Session, `stripe.Webhook.construct_event` for the signature
(`t=<unix time>,v1=<HMAC-SHA256 of "t.payload">`, at most 5 minutes old), refunds with an
idempotency key. Its API key and webhook secret live in Secrets Manager (one JSON secret:
`{"api_key": ..., "webhook_secret": ...}`); the local stack's fake provider stands in for
the provider's API through `PAYMENT_PROVIDER_API_BASE`, and signs its webhooks the same way,
so the real verification runs there too.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from tavla import aws
from tavla.errors import ForgedWebhook, MalformedWebhook, ProviderUnavailable
from tavla.frozen import Frozen

if TYPE_CHECKING:
    import stripe

SECRET_ENV = "PAYMENT_PROVIDER_SECRET_ID"
API_BASE_ENV = "PAYMENT_PROVIDER_API_BASE"  # local stack only: the fake provider's API
RETURN_URL_ENV = "CHECKOUT_RETURN_URL"  # where the provider sends the player back
SIGNATURE_TOLERANCE_SECONDS = 300
DEFAULT_TIMEOUT_SECONDS = 20.0  # per call (the SDK's own default, 80 s, outlives a Lambda)
COMPLETED = ("checkout.session.completed", "checkout.session.async_payment_succeeded")


@dataclass(frozen=True, eq=False, repr=False)
class Checkout(Frozen):
    session_id: str
    url: str


MAX_CENTS = 100_000_000  # the API's largest amount (tavla.models.common.Money)
Text = Annotated[StrictStr, Field(min_length=1, max_length=255)]


class _Lenient(BaseModel):
    """The provider adds fields over time: unknown ones are ignored, known ones are strict."""

    # built by the first webhook read, not at every cold start of the functions importing it
    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)


class _Envelope(_Lenient):
    id: Text
    type: Text
    created: StrictInt = Field(ge=0, le=2**40)
    data: dict[str, Any]


class _Session(_Lenient):
    """A Checkout Session as the webhook carries it: what the payment is checked against."""

    id: Text
    amount_total: StrictInt = Field(gt=0, le=MAX_CENTS)
    currency: Annotated[StrictStr, Field(pattern=r"^[A-Za-z]{3}$")]
    payment_status: StrictStr | None = None
    metadata: dict[str, StrictStr] = Field(default_factory=dict)
    payment_intent: Text | None = None


_M = TypeVar("_M", bound=BaseModel)


def _parsed(model: type[_M], value: Any) -> _M:
    try:
        return model.model_validate(value)
    except ValidationError as error:
        fields = ", ".join(".".join(str(p) for p in e["loc"]) or "body" for e in error.errors())
        raise MalformedWebhook(f"The webhook's event is not a well-formed payment ({fields}).") from error


@dataclass(frozen=True, eq=False, repr=False)
class PaidCheckout(Frozen):
    """A completed checkout as the provider reports it: its amount is the truth."""

    event_id: str
    session_id: str
    amount: int
    currency: str
    metadata: dict[str, str]
    paid_at: datetime
    payment_ref: str | None


class CardProvider(Protocol):
    name: str

    def create_checkout(
        self, *, amount: int, currency: str, description: str, metadata: dict[str, str], return_url: str
    ) -> Checkout: ...

    def paid_checkout(self, payload: str, signature: str | None, now: datetime) -> PaidCheckout | None:
        """The completed payment a verified webhook announces (None: another kind of event).

        Raises ForgedWebhook when the signature does not verify, is stale, or is dated more
        than the tolerance after `now`."""
        ...

    def refund(self, *, payment_ref: str, amount: int, idempotency_key: str) -> str: ...


class StripeProvider:
    """Stripe Checkout through the `stripe` SDK (imported on first use: cold starts stay small)."""

    name = "stripe"

    def __init__(
        self,
        api_key: str,
        webhook_secret: str,
        *,
        api_base: str | None = None,
        http_client: stripe.HTTPClient | None = None,
        timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS,
        retries: int = 2,
    ) -> None:
        self.api_key = api_key
        self.webhook_secret = webhook_secret
        self.api_base = api_base
        self.http_client = http_client
        self.timeout_seconds = timeout_seconds
        self.retries = retries

    def _client(self) -> stripe.StripeClient:
        import stripe

        bases: Any = {"api": self.api_base} if self.api_base else None
        http_client = self.http_client or stripe.new_default_http_client(timeout=self.timeout_seconds)
        return stripe.StripeClient(
            self.api_key, base_addresses=bases, http_client=http_client, max_network_retries=self.retries
        )

    def create_checkout(
        self, *, amount: int, currency: str, description: str, metadata: dict[str, str], return_url: str
    ) -> Checkout:
        import stripe

        try:
            session = self._client().v1.checkout.sessions.create(
                {
                    "mode": "payment",
                    "line_items": [
                        {
                            "quantity": 1,
                            "price_data": {
                                "currency": currency.lower(),
                                "unit_amount": amount,
                                "product_data": {"name": description},
                            },
                        }
                    ],
                    "metadata": metadata,
                    "payment_intent_data": {"metadata": metadata},
                    "success_url": with_outcome(return_url, "success"),
                    "cancel_url": with_outcome(return_url, "cancelled"),
                }
            )
        except stripe.StripeError as error:
            raise ProviderUnavailable("The card payment provider did not answer; try again.") from error
        return Checkout(session_id=str(session.id), url=str(session.url))

    def paid_checkout(self, payload: str, signature: str | None, now: datetime) -> PaidCheckout | None:
        import stripe

        try:
            stripe.Webhook.construct_event(
                payload, signature, self.webhook_secret, SIGNATURE_TOLERANCE_SECONDS, api_key=self.api_key
            )
        except (stripe.SignatureVerificationError, ValueError) as error:
            raise ForgedWebhook("The webhook's signature does not verify: nothing was recorded.") from error
        if signed_at(signature) > now.timestamp() + SIGNATURE_TOLERANCE_SECONDS:
            # the SDK refuses only old signatures; one dated in the future could be replayed later
            raise ForgedWebhook("The webhook's signature is dated in the future: nothing was recorded.")
        try:
            raw = json.loads(payload)
        except ValueError as error:
            raise MalformedWebhook("The webhook's body is not JSON.") from error
        event = _parsed(_Envelope, raw)
        if event.type not in COMPLETED:
            return None
        session = _parsed(_Session, event.data.get("object"))
        if session.payment_status != "paid":
            return None  # an asynchronous payment still on its way: its success event follows
        return PaidCheckout(
            event_id=event.id,
            session_id=session.id,
            amount=session.amount_total,
            currency=session.currency.upper(),
            metadata=dict(session.metadata),
            paid_at=datetime.fromtimestamp(event.created, UTC),
            payment_ref=session.payment_intent,
        )

    def refund(self, *, payment_ref: str, amount: int, idempotency_key: str) -> str:
        import stripe

        try:
            refund = self._client().v1.refunds.create(
                {"payment_intent": payment_ref, "amount": amount}, {"idempotency_key": idempotency_key}
            )
        except stripe.StripeError as error:
            raise ProviderUnavailable("The card payment provider did not answer; try again.") from error
        return str(refund.id)


def signed_at(signature: str | None) -> int:
    """The newest `t=` (unix seconds) of a provider signature header, as the SDK reads it."""
    stamps = [
        int(value)
        for key, _, value in (part.partition("=") for part in (signature or "").split(","))
        if key.strip() == "t" and value.strip().lstrip("-").isdigit()
    ]
    return max(stamps, default=0)


_http_client: Any = None


def use_http_client(client: Any) -> None:
    """Send the provider's API calls through this SDK HTTP client (tests: an in-process fake)."""
    global _http_client
    _http_client = client


def provider(*, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS, retries: int = 2) -> CardProvider:
    """The configured provider: its keys from Secrets Manager (cached for five minutes).

    `timeout_seconds` and `retries` bound each API call: a caller that must answer quickly
    (a withdrawal, whose refund is retried later anyway) asks for less."""
    secret = json.loads(aws.secret(os.environ[SECRET_ENV]))
    return StripeProvider(
        str(secret["api_key"]),
        str(secret["webhook_secret"]),
        api_base=os.environ.get(API_BASE_ENV),
        http_client=_http_client,
        timeout_seconds=timeout_seconds,
        retries=retries,
    )


def return_url(tournament_id: str) -> str:
    """The web page of the tournament (the front end routes by the URL's hash)."""
    base = os.environ.get(RETURN_URL_ENV, "http://localhost:8000").rstrip("/")
    return f"{base}/#/t/{tournament_id}"


def with_outcome(url: str, outcome: str) -> str:
    """`url` with `?checkout=<outcome>` before its hash, where the page reads it (location.search)."""
    page, mark, route = url.partition("#")
    return f"{page}?checkout={outcome}{mark}{route}"
