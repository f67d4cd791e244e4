"""The statement store: large bank statements between their upload and their import job.

A private bucket (S3-managed encryption, TLS only, public access blocked, owner-enforced
objects, versioning off: an upload is read once); the lifecycle removes anything under the
statements prefix after a week (a job deletes what it imported; this sweeps what a failed
one left) and aborts unfinished multipart uploads. The payments function may only put
objects there, the statements job only read and delete them, both under the prefix.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas
from tavla.statement_files import BUCKET_ENV, PREFIX

KEPT_DAYS = 7
# what each kind of access may do, on the statements prefix only
ACTIONS = {"put": ["s3:PutObject"], "read": ["s3:GetObject", "s3:DeleteObject"]}


class StatementFiles(Construct):
    def __init__(self, scope: Construct, construct_id: str, lambdas: Lambdas) -> None:
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
        for spec in lambdas.specs:
            if spec.statement_files is None:
                continue
            function = lambdas.by_name[spec.name]
            function.add_environment(BUCKET_ENV, self.bucket.bucket_name)
            function.add_to_role_policy(
                iam.PolicyStatement(actions=ACTIONS[spec.statement_files], resources=[objects])
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
                            {"regex": "/^Resource::<StatementFilesUploads.*\\.Arn>\\/statements\\/\\*$/g"}
                        ],
                    }
                ],
                apply_to_children=True,
            )
