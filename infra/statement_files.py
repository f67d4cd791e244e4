"""The statement store: large bank statements between their upload and their import job.

A private bucket (S3-managed encryption, TLS only, public access blocked, owner-enforced
objects, versioning off: an upload is read once); the lifecycle removes anything under the
statements prefix after a week (a job deletes what it imported; this sweeps what a failed
one left) and aborts unfinished multipart uploads. The payments function may only put
objects there, the statements job only read and delete them, both under the prefix. The
photos of adjourned positions live under their own prefix (kept 90 days): the function that
adjourns matches signs uploads (put) and short links (get) there, and nowhere else; the site's
origin alone may post the upload's form from a browser (CORS).
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas
from tavla.statement_files import BUCKET_ENV, PHOTOS_PREFIX, PREFIX

KEPT_DAYS = 7
PHOTO_FORM_SECONDS = 300  # how long a browser may keep the upload's preflight answer
PHOTOS_KEPT_DAYS = 90  # an adjourned position may be appealed, then reported: a season's quarter
# what each kind of access may do, on the statements prefix only
ACTIONS = {"put": ["s3:PutObject"], "read": ["s3:GetObject", "s3:DeleteObject"]}


class StatementFiles(Construct):
    def __init__(self, scope: Construct, construct_id: str, lambdas: Lambdas, web_origin: str) -> None:
        super().__init__(scope, construct_id)
        self.bucket = s3.Bucket(
            self,
            "Uploads",
            encryption=s3.BucketEncryption.S3_MANAGED,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            lifecycle_rules=[
                s3.LifecycleRule(
                    id="uploads-swept",
                    prefix=PREFIX,
                    expiration=Duration.days(KEPT_DAYS),
                    abort_incomplete_multipart_upload_after=Duration.days(1),
                ),
                s3.LifecycleRule(
                    id="photos-swept",
                    prefix=PHOTOS_PREFIX,
                    expiration=Duration.days(PHOTOS_KEPT_DAYS),
                    abort_incomplete_multipart_upload_after=Duration.days(1),
                ),
            ],
            # the desk's phone posts the position's photo from the site with the presigned form
            # (a cross-origin POST whose answer the page reads); nothing else crosses origins
            cors=[
                s3.CorsRule(
                    allowed_methods=[s3.HttpMethods.POST],
                    allowed_origins=[web_origin],
                    allowed_headers=["*"],
                    max_age=PHOTO_FORM_SECONDS,
                )
            ],
            # kept when a stage goes, as the site's bucket (CloudFormation cannot delete a bucket
            # with objects in it): empty within a week of the last upload, then delete by hand
            removal_policy=RemovalPolicy.RETAIN,
        )
        NagSuppressions.add_resource_suppressions(
            self.bucket,
            [
                {
                    "id": "AwsSolutions-S1",
                    "reason": "Objects live for one import job; the functions' structured logs "
                    "record each upload and import with the organiser and the statement's id.",
                }
            ],
        )
        objects = self.bucket.arn_for_objects(f"{PREFIX}*")
        photos = self.bucket.arn_for_objects(f"{PHOTOS_PREFIX}*")
        for spec in lambdas.specs:
            if spec.statement_files is None and not spec.position_photos:
                continue
            function = lambdas.by_name[spec.name]
            function.add_environment(BUCKET_ENV, self.bucket.bucket_name)
            if spec.statement_files is not None:
                function.add_to_role_policy(
                    iam.PolicyStatement(actions=ACTIONS[spec.statement_files], resources=[objects])
                )
            if spec.position_photos:
                function.add_to_role_policy(
                    iam.PolicyStatement(actions=["s3:PutObject", "s3:GetObject"], resources=[photos])
                )
            assert function.role is not None
            NagSuppressions.add_resource_suppressions(
                function.role,
                [
                    {
                        "id": "AwsSolutions-IAM5",
                        "reason": "Each upload's key is made when it is stored: the grant names the "
                        "statements prefix of this one bucket, and only the object actions it needs.",
                        "appliesTo": [
                            {"regex": "/^Resource::<StatementFilesUploads.*\\.Arn>\\/statements\\/\\*$/g"},
                            {"regex": "/^Resource::<StatementFilesUploads.*\\.Arn>\\/adjournments\\/\\*$/g"},
                        ],
                    }
                ],
                apply_to_children=True,
            )
