"""Operating a stage: the dashboard, the budget and the backup plan.

The dashboard is built from the registry like the alarms: a row per function (invocations,
errors, throttles; p50 and p99 duration), then the API, the tables, the asynchronous side
(dead letters, schedules) and the WAF at the edge (its metrics live in us-east-1), with the
state of every alarm on top. The budget mails the stage's operators (and the alarm topic)
at 80 % of the month's amount spent and at 100 % forecast. Protected stages get an AWS
Backup plan over every table: daily copies kept 35 days, monthly copies kept a year, in a
vault that refuses deletion of recovery points by anyone but the account's root.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_backup as backup
from aws_cdk import aws_budgets as budgets
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_iam as iam
from aws_cdk import aws_sqs as sqs
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.alarms import PERIOD, Alarms
from infra.lambdas import Lambdas
from infra.stages import EDGE_REGION, Stage

WIDTH = 24  # a dashboard row
DAILY_RETENTION = Duration.days(35)
MONTHLY_RETENTION = Duration.days(365)


class Dashboard(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        stage: Stage,
        lambdas: Lambdas,
        alarms: Alarms,
        http_api: apigwv2.HttpApi,
        tables: dict[str, dynamodb.Table],
        dead_letters: sqs.IQueue,
        web_acl_metric: str | None,
    ) -> None:
        super().__init__(scope, construct_id)
        self.dashboard = cloudwatch.Dashboard(
            self,
            "Dashboard",
            dashboard_name=f"{stage.stack_name}-operations",
            default_interval=Duration.hours(3),
        )
        self.dashboard.add_widgets(
            cloudwatch.AlarmStatusWidget(title="Alarms", alarms=alarms.all, width=WIDTH, height=6)
        )
        api = {"ApiId": http_api.api_id}
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(
                title="API: requests, 4xx, 5xx",
                left=[
                    cloudwatch.Metric(namespace="AWS/ApiGateway", metric_name=name, dimensions_map=api,
                                      period=PERIOD, statistic="Sum")
                    for name in ("Count", "4xx", "5xx")
                ],
                width=12,
            ),
            cloudwatch.GraphWidget(
                title="API: latency p50 / p99 (ms)",
                left=[
                    cloudwatch.Metric(namespace="AWS/ApiGateway", metric_name="Latency", dimensions_map=api,
                                      period=PERIOD, statistic=stat)
                    for stat in ("p50", "p99")
                ],
                width=12,
            ),
        )  # fmt: skip
        for spec in lambdas.specs:
            function = lambdas.by_name[spec.name]
            self.dashboard.add_widgets(
                cloudwatch.GraphWidget(
                    title=f"{spec.name}: invocations, errors, throttles",
                    left=[
                        function.metric_invocations(period=PERIOD, statistic="Sum"),
                        function.metric_errors(period=PERIOD, statistic="Sum"),
                        function.metric_throttles(period=PERIOD, statistic="Sum"),
                    ],
                    width=12,
                ),
                cloudwatch.GraphWidget(
                    title=f"{spec.name}: duration p50 / p99 (ms)",
                    left=[function.metric_duration(period=PERIOD, statistic=s) for s in ("p50", "p99")],
                    width=12,
                ),
            )
        table_metrics = []
        for name, table in tables.items():
            table_metrics += [
                table.metric(metric, period=PERIOD, statistic="Sum", label=f"{name} {metric}")
                for metric in ("ConsumedReadCapacityUnits", "ConsumedWriteCapacityUnits")
            ]
        throttle_metrics = [
            table.metric(metric, period=PERIOD, statistic="Sum", label=f"{name} {metric}")
            for name, table in tables.items()
            for metric in ("ReadThrottleEvents", "WriteThrottleEvents")
        ]
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(title="Tables: consumed capacity", left=table_metrics, width=12),
            cloudwatch.GraphWidget(title="Tables: throttled requests", left=throttle_metrics, width=12),
        )
        edge: list[cloudwatch.IWidget] = []
        if web_acl_metric is not None:
            acl = {"WebACL": web_acl_metric, "Rule": "ALL"}
            edge.append(
                cloudwatch.GraphWidget(
                    title="WAF at the edge: allowed / blocked",
                    left=[
                        cloudwatch.Metric(namespace="AWS/WAFV2", metric_name=name, dimensions_map=acl,
                                          region=EDGE_REGION, period=PERIOD, statistic="Sum")
                        for name in ("AllowedRequests", "BlockedRequests")
                    ],
                    width=12,
                )
            )  # fmt: skip
        self.dashboard.add_widgets(
            cloudwatch.GraphWidget(
                title="Dead-letter queue: messages waiting",
                left=[
                    dead_letters.metric_approximate_number_of_messages_visible(
                        period=PERIOD, statistic="Maximum"
                    )
                ],
                width=12,
            ),
            *edge,
        )


class Budget(Construct):
    """A monthly cost budget: e-mail and the operators' topic at 80 % actual, 100 % forecast."""

    def __init__(self, scope: Construct, construct_id: str, *, stage: Stage, alarms: Alarms) -> None:
        super().__init__(scope, construct_id)
        alarms.topic.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("budgets.amazonaws.com")],
                actions=["sns:Publish"],
                resources=[alarms.topic.topic_arn],
                conditions={"StringEquals": {"aws:SourceAccount": Stack.of(self).account}},
            )
        )
        alarms.key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("budgets.amazonaws.com")],
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                resources=["*"],  # in a key policy, "*" is this key
            )
        )
        subscribers = [
            budgets.CfnBudget.SubscriberProperty(subscription_type="EMAIL", address=stage.alarm_email),
            budgets.CfnBudget.SubscriberProperty(subscription_type="SNS", address=alarms.topic.topic_arn),
        ]
        self.budget = budgets.CfnBudget(
            self,
            "Monthly",
            budget=budgets.CfnBudget.BudgetDataProperty(
                budget_name=f"{stage.stack_name}-monthly",
                budget_type="COST",
                time_unit="MONTHLY",
                budget_limit=budgets.CfnBudget.SpendProperty(amount=stage.monthly_budget_usd, unit="USD"),
            ),
            notifications_with_subscribers=[
                budgets.CfnBudget.NotificationWithSubscribersProperty(
                    notification=budgets.CfnBudget.NotificationProperty(
                        notification_type=kind,
                        comparison_operator="GREATER_THAN",
                        threshold=threshold,
                        threshold_type="PERCENTAGE",
                    ),
                    subscribers=subscribers,
                )
                for kind, threshold in (("ACTUAL", 80), ("FORECASTED", 100))
            ],
        )


class Backups(Construct):
    """AWS Backup over every table of the stack (the tables construct's, whatever they are)."""

    def __init__(
        self, scope: Construct, construct_id: str, *, stage: Stage, tables: dict[str, dynamodb.Table]
    ) -> None:
        super().__init__(scope, construct_id)
        self.vault = backup.BackupVault(
            self,
            "Vault",
            backup_vault_name=f"{stage.stack_name}-tables",
            removal_policy=RemovalPolicy.RETAIN,
            lock_configuration=backup.LockConfiguration(min_retention=Duration.days(7)),
        )
        self.plan = backup.BackupPlan(
            self, "Plan", backup_plan_name=f"{stage.stack_name}-tables", backup_vault=self.vault
        )
        self.plan.add_rule(
            backup.BackupPlanRule(
                rule_name="Daily",
                schedule_expression=events.Schedule.cron(hour="2", minute="30"),
                delete_after=DAILY_RETENTION,
            )
        )
        self.plan.add_rule(
            backup.BackupPlanRule(
                rule_name="Monthly",
                schedule_expression=events.Schedule.cron(day="1", hour="3", minute="30"),
                delete_after=MONTHLY_RETENTION,
            )
        )
        selection = self.plan.add_selection(
            "Tables",
            resources=[backup.BackupResource.from_dynamo_db_table(t) for t in tables.values()],
        )
        NagSuppressions.add_resource_suppressions(
            selection,
            [
                {
                    "id": "AwsSolutions-IAM4",
                    "reason": "AWS Backup assumes this role with AWS's own backup service policy, the "
                    "documented minimum for taking and tagging DynamoDB backups in the vault.",
                    "appliesTo": [
                        "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup"
                    ],
                }
            ],
            apply_to_children=True,
        )
