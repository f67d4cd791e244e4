"""GET /openapi.json: the API's one OpenAPI document.

The document is generated from every function's routers by `python -m infra.openapi`
(`make openapi`), checked into this folder, and deployed with this function; CI fails when
it is out of date, so a contract change shows in review.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from aws_lambda_powertools.event_handler import Response

from tavla.http import make_resolver
from tavla.observability import entry

DOCUMENT = Path(__file__).with_name("openapi.json")

app = make_resolver()


@cache
def document() -> str:
    return DOCUMENT.read_text(encoding="utf-8")


@app.get(
    "/openapi.json",
    tags=["documentation"],
    responses={
        200: {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object"}}}}
    },
)
def openapi() -> Response[str]:
    """The API's OpenAPI document.

    Every route, its inputs, its answers and its errors; generated from the handlers.
    """
    return Response(status_code=200, content_type="application/json", body=document())


handler = entry(app)
