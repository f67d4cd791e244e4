"""What a stage decides about data and logs, applied to every resource of its kind.

An aspect rather than arguments: whatever construct adds a table, a user pool or a log
group (today's or a later issue's), the stage's policy reaches it. A protected stage (prod)
keeps its tables, user pool and logs when the stack goes, with deletion protection on; an
unprotected one (dev) lets `make destroy` remove them. Log retention is the stage's.
Point-in-time recovery stays on in every stage (the tables construct sets it).
"""

from __future__ import annotations

import jsii
from aws_cdk import CfnDeletionPolicy, IAspect
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_logs as logs
from constructs import IConstruct

from infra.stages import Stage


@jsii.implements(IAspect)
class StagePolicy:
    def __init__(self, stage: Stage) -> None:
        self.stage = stage

    def visit(self, node: IConstruct) -> None:
        policy = CfnDeletionPolicy.RETAIN if self.stage.protected else CfnDeletionPolicy.DELETE
        if isinstance(node, dynamodb.CfnTable):
            node.deletion_protection_enabled = self.stage.protected
            node.cfn_options.deletion_policy = policy
            node.cfn_options.update_replace_policy = policy
        elif isinstance(node, cognito.CfnUserPool):
            node.deletion_protection = "ACTIVE" if self.stage.protected else "INACTIVE"
            node.cfn_options.deletion_policy = policy
            node.cfn_options.update_replace_policy = policy
        elif isinstance(node, logs.CfnLogGroup):
            node.retention_in_days = self.stage.log_retention_days
            node.cfn_options.deletion_policy = policy
            node.cfn_options.update_replace_policy = policy
