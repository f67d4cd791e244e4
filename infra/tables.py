"""The DynamoDB tables, built from `tavla.store.schema.TABLES`, and the grants on them.

Grants name the table and each of its indexes explicitly (no `index/*` wildcard), with one
action list per declared access level, so IAM says exactly what the registry says.
"""

from __future__ import annotations

from collections.abc import Iterable

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from constructs import Construct

from infra.registry import Access
from tavla.store.schema import TABLES, TableSpec

READ_ACTIONS: tuple[str, ...] = (
    "dynamodb:BatchGetItem",
    "dynamodb:ConditionCheckItem",
    "dynamodb:DescribeTable",
    "dynamodb:GetItem",
    "dynamodb:Query",
    "dynamodb:Scan",
)
WRITE_ACTIONS: tuple[str, ...] = (
    "dynamodb:BatchWriteItem",
    "dynamodb:DeleteItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
)
ACTIONS: dict[Access, tuple[str, ...]] = {"read": READ_ACTIONS, "read_write": READ_ACTIONS + WRITE_ACTIONS}


def _key(name: str) -> dynamodb.Attribute:
    # The schema declares names only; every key and index attribute is a string.
    return dynamodb.Attribute(name=name, type=dynamodb.AttributeType.STRING)


class Tables(Construct):
    """One table per schema declaration: on demand, PITR, deletion protection, retained."""

    def __init__(self, scope: Construct, construct_id: str, streamed: Iterable[str] = ()) -> None:
        """`streamed`: the tables whose stream (new images) a function reads (the outbox's)."""
        super().__init__(scope, construct_id)
        wanted = set(streamed)
        self.by_name: dict[str, dynamodb.Table] = {
            spec.name: self._table(spec, spec.name in wanted) for spec in TABLES
        }

    def _table(self, spec: TableSpec, streamed: bool) -> dynamodb.Table:
        table = dynamodb.Table(
            self,
            spec.name.capitalize(),
            partition_key=_key(spec.partition),
            sort_key=_key(spec.sort) if spec.sort else None,
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            deletion_protection=True,
            removal_policy=RemovalPolicy.RETAIN,
            encryption=dynamodb.TableEncryption.AWS_MANAGED,
            time_to_live_attribute=spec.ttl_attribute,
            stream=dynamodb.StreamViewType.NEW_IMAGE if streamed else None,
        )
        for index in spec.indexes:
            sort_key = _key(index.sort) if index.sort else None
            if index.local:
                if sort_key is None:
                    raise ValueError(f"local index {spec.name}.{index.name} needs a sort key")
                table.add_local_secondary_index(index_name=index.name, sort_key=sort_key)
            else:
                table.add_global_secondary_index(
                    index_name=index.name, partition_key=_key(index.partition), sort_key=sort_key
                )
        return table

    def grant(self, grantee: iam.IGrantable, spec: TableSpec, access: Access) -> None:
        """Give `grantee` the declared access to the table and its indexes, nothing more."""
        table = self.by_name[spec.name]
        resources = [table.table_arn, *(f"{table.table_arn}/index/{i.name}" for i in spec.indexes)]
        grantee.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(actions=list(ACTIONS[access]), resources=resources)
        )
