"""The statement store (R3.3, R12): a private, encrypted bucket whose uploads are swept after a
week; the payments function may only put statements there, the statements job only read and
delete them, both under the statements prefix, and no other function touches it."""

from __future__ import annotations

import pytest

from infra.statement_files import KEPT_DAYS, PHOTOS_KEPT_DAYS
from tavla.statement_files import BUCKET_ENV, PHOTOS_PREFIX, PREFIX
from tests.infra.conftest import PROD_DOMAIN
from tests.infra.helpers import Synthesized, actions_on, environment

pytestmark = pytest.mark.infra


def test_the_bucket_is_private_encrypted_tls_only_and_swept(synthesized: dict[str, Synthesized]) -> None:
    real = synthesized["real"]
    bucket = real.resources[real.logical_id(real.stack.statement_files.bucket)]["Properties"]
    assert bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"] == [
        {"ServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}
    ]
    assert bucket["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    rule, photos = bucket["LifecycleConfiguration"]["Rules"]
    assert (photos["Prefix"], photos["ExpirationInDays"]) == (PHOTOS_PREFIX, PHOTOS_KEPT_DAYS)
    assert (rule["Prefix"], rule["ExpirationInDays"], rule["Status"]) == (PREFIX, KEPT_DAYS, "Enabled")
    assert rule["AbortIncompleteMultipartUpload"] == {"DaysAfterInitiation": 1}
    policies = [r for r in real.resources.values() if r["Type"] == "AWS::S3::BucketPolicy"]
    denied = [
        s
        for p in policies
        for s in p["Properties"]["PolicyDocument"]["Statement"]
        if s["Effect"] == "Deny" and s.get("Condition") == {"Bool": {"aws:SecureTransport": "false"}}
    ]
    assert denied, "no TLS-only policy"


def test_only_the_payments_function_puts_and_only_the_job_reads_and_deletes(each_stack: Synthesized) -> None:
    """...and only the function that adjourns matches signs the photos' uploads and links, under
    their own prefix."""
    for spec in each_stack.functions:
        granted = actions_on(each_stack, spec.name, "s3:")
        variables = environment(each_stack, spec.name)
        if spec.statement_files is None and not spec.position_photos:
            assert granted == {}, spec.name
            assert BUCKET_ENV not in variables, spec.name
            continue
        bucket = each_stack.logical_id(each_stack.stack.statement_files.bucket)
        assert variables[BUCKET_ENV] == {"Ref": bucket}
        wanted: dict[str, set[str]] = {}
        if spec.statement_files is not None:
            expected = {"put": {"s3:PutObject"}, "read": {"s3:GetObject", "s3:DeleteObject"}}
            wanted[f"<{bucket}.Arn>/{PREFIX}*"] = expected[spec.statement_files]
        if spec.position_photos:
            wanted[f"<{bucket}.Arn>/{PHOTOS_PREFIX}*"] = {"s3:PutObject", "s3:GetObject"}
        assert granted == wanted, spec.name
    assert {s.name for s in each_stack.functions if s.position_photos} <= {"presence"}


def test_only_the_site_may_post_a_photo_s_form_from_a_browser(real: Synthesized, prod: Synthesized) -> None:
    """The phone at the desk posts the presigned form from the site's origin (CORS): POST
    alone, from that origin alone; a stage with a domain names its domain."""
    distribution = real.logical_id(real.stack.cdn.distribution)
    site = {"Fn::Join": ["", ["https://", {"Fn::GetAtt": [distribution, "DomainName"]}]]}
    for synth, origin in ((real, site), (prod, f"https://{PROD_DOMAIN}")):
        bucket = synth.resources[synth.logical_id(synth.stack.statement_files.bucket)]["Properties"]
        (rule,) = bucket["CorsConfiguration"]["CorsRules"]
        assert rule["AllowedMethods"] == ["POST"]
        assert rule["AllowedOrigins"] == [origin]
