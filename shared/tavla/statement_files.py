"""The statement store: a large bank statement's upload, kept in S3 until its import job has
read it (the bucket's lifecycle removes what a failed job left). The local stack's S3 is
moto's, behind the same calls."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from tavla import aws

BUCKET_ENV = "STATEMENTS_BUCKET"
PREFIX = "statements/"  # the bucket's lifecycle rule and the functions' grants name it
PHOTOS_PREFIX = "adjournments/"  # the positions of adjourned matches (`rules.adjournment`)


def key(tournament_id: str, statement_id: str) -> str:
    return f"{PREFIX}{tournament_id}/{statement_id}.json"


@cache
def _client() -> Any:
    return aws.session().client("s3")


def _bucket() -> str:
    return os.environ[BUCKET_ENV]


def put(name: str, body: bytes) -> None:
    _client().put_object(Bucket=_bucket(), Key=name, Body=body, ContentType="application/json")


def get(name: str) -> bytes:
    return bytes(_client().get_object(Bucket=_bucket(), Key=name)["Body"].read())


def delete(name: str) -> None:
    _client().delete_object(Bucket=_bucket(), Key=name)


def presigned_post(name: str, content_type: str, max_bytes: int, seconds: int) -> dict[str, Any]:
    """A form a browser posts one file with, straight to the bucket: this key, this type, at
    most `max_bytes`, within `seconds` (S3 refuses anything else)."""
    form: dict[str, Any] = _client().generate_presigned_post(
        Bucket=_bucket(),
        Key=name,
        Fields={"Content-Type": content_type},
        Conditions=[{"Content-Type": content_type}, ["content-length-range", 1, max_bytes]],
        ExpiresIn=seconds,
    )
    return form


def presigned_get(name: str, seconds: int) -> str:
    """A link that reads one object for `seconds`."""
    url: str = _client().generate_presigned_url(
        "get_object", Params={"Bucket": _bucket(), "Key": name}, ExpiresIn=seconds
    )
    return url
