"""Bus events -> the player's in-app feed and SMS (EventBridge target)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext

from tavla.services import notify

logger = Logger()


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    delivered = notify.deliver(event)
    logger.info("event handled", extra={"detail_type": event.get("detail-type"), "delivered": delivered})
    return {"delivered": delivered}
