"""The whole Tavla platform as one regional stack per stage, assembled from the registry, one
construct per concern; the stage (infra/stages.py, from CDK context) sets names, limits,
retention and protection, and the edge stack's web ACL (us-east-1) guards CloudFront."""

from __future__ import annotations

from aws_cdk import AspectPriority, Aspects, CfnOutput, Stack
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_events as events
from constructs import Construct

from infra import throttling
from infra.alarms import Alarms
from infra.api import Api
from infra.auth import Auth
from infra.card_payments import CardPayments
from infra.cdn import Cdn
from infra.events import Events
from infra.lambdas import Lambdas
from infra.live import LiveChannel
from infra.notifications import Notifications
from infra.operations import Backups, Budget, Dashboard
from infra.pass_key import PassKey
from infra.registry import FUNCTIONS, OUTBOX_TABLE, WORKFLOWS, Function
from infra.scheduler import Scheduling
from infra.stage_policy import StagePolicy
from infra.stages import Stage, from_cdk_json
from infra.statement_files import StatementFiles
from infra.tables import Tables
from infra.workflows import Workflows


class TavlaStack(Stack):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        functions: tuple[Function, ...] = FUNCTIONS,
        *,
        stage: Stage | None = None,
        web_acl_arn: str | None = None,
        web_acl_metric: str | None = None,
        **kwargs: object,
    ) -> None:
        stage = stage or from_cdk_json()["dev"]
        super().__init__(
            scope,
            construct_id,
            description=f"Tavla ({stage.name}): physical backgammon tournaments",
            **kwargs,  # type: ignore[arg-type]
        )
        self.stage = stage
        if stage.email_from:
            self.node.set_context("email_from", stage.email_from)
        if stage.sms_sender_id:
            self.node.set_context("sms_sender_id", stage.sms_sender_id)
        # the outbox's table has a stream when a function drains it (the publisher)
        self.tables = Tables(
            self, "Tables", streamed=[OUTBOX_TABLE.name] if any(f.drains_outbox for f in functions) else []
        )
        self.lambdas = Lambdas(self, "Functions", functions)
        by_name = self.lambdas.by_name
        for spec in functions:
            for table, access in spec.table_specs():
                self.tables.grant(by_name[spec.name], table, access)
                by_name[spec.name].add_environment(table.env_var, self.tables.by_name[table.name].table_name)
        self.events = Events(self, "Events", self.lambdas, self.tables)
        self.scheduling = Scheduling(self, "Scheduler", self.lambdas, self.events.dead_letters)
        # the registry's workflows (the full rebuild) as Step Functions state machines
        self.workflows = Workflows(
            self,
            "Workflows",
            tuple(w for w in WORKFLOWS if w.function in by_name),
            self.lambdas,
            self.scheduling.group,
            self.events.dead_letters,
        )
        self.notifications = Notifications(self, "Notifications", self.lambdas)
        self.pass_key = PassKey(self, "PassKey", self.lambdas)
        self.auth = Auth(self, "Auth")
        for spec in functions:
            if spec.manages_roles:
                self.auth.grant_role_changes(by_name[spec.name])
            if spec.erases_users:
                self.auth.grant_erasure(by_name[spec.name])
        self.sign_in = self.auth.user_pool.add_domain(
            "SignIn", cognito_domain=cognito.CognitoDomainOptions(domain_prefix=stage.sign_in_domain_prefix)
        )
        self.api = Api(self, "Api", self.lambdas, self.auth)
        # the venue's live channel, where the registry has its functions
        self.live = (
            LiveChannel(self, "Live", self.lambdas, self.auth)
            if any(f.authorizes_live for f in functions)
            else None
        )
        throttling.apply(self.api.stage, stage, functions)
        sign_in_origin = f"https://{stage.sign_in_domain_prefix}.auth.{self.region}.amazoncognito.com"
        self.cdn = Cdn(
            self,
            "Cdn",
            functions,
            self.api.http_api.api_id,
            web_acl_arn=web_acl_arn,
            stage=stage,
            sign_in_origin=sign_in_origin,
        )
        site = f"https://{stage.domain}" if stage.domain else f"https://{self.cdn.domain_name}"
        # the web client signs in on the site's origin; /config.json tells the one
        # build which API, hosted UI and client it talks to
        self.auth.serve_site(site)
        self.cdn.site.deploy(
            self.cdn.distribution,
            {
                "mode": "cognito",
                "api": site,
                "sign_in": self.sign_in.base_url(),
                "client_id": self.auth.web_client.user_pool_client_id,
                **(
                    {"live": self.live.url, "live_host": self.live.host, "live_key": self.live.api_key}
                    if self.live
                    else {}
                ),
            },
        )
        self.card_payments = CardPayments(self, "CardPayments", self.lambdas, return_url=site)
        if any(f.statement_files or f.position_photos for f in functions):
            self.statement_files = StatementFiles(self, "StatementFiles", self.lambdas, web_origin=site)
        self.alarms = Alarms(self, "Alarms", lambdas=self.lambdas, dead_letters=self.events.dead_letters)
        rules = [r for r in self.events.node.children if isinstance(r, events.Rule)]
        self.alarms.watch(
            stage=stage,
            tables=self.tables.by_name,
            schedule_group=self.scheduling.group,
            rules=rules,
            queues=self.events.queues,
            http_api=self.api.http_api,
            lambdas=self.lambdas,
            workflows=self.workflows.by_name,
        )
        self.dashboard = Dashboard(
            self,
            "Operations",
            stage=stage,
            lambdas=self.lambdas,
            alarms=self.alarms,
            http_api=self.api.http_api,
            tables=self.tables.by_name,
            dead_letters=self.events.dead_letters,
            web_acl_metric=web_acl_metric,
        )
        self.budget = Budget(self, "Budget", stage=stage, alarms=self.alarms)
        self.backups = (
            Backups(self, "Backups", stage=stage, tables=self.tables.by_name) if stage.backup else None
        )
        Aspects.of(self).add(StagePolicy(stage), priority=AspectPriority.MUTATING)

        CfnOutput(self, "ApiUrl", value=self.api.url)
        CfnOutput(self, "SiteUrl", value=site)
        CfnOutput(self, "UserPoolId", value=self.auth.user_pool.user_pool_id)
        CfnOutput(self, "UserPoolClientId", value=self.auth.client.user_pool_client_id)
        CfnOutput(self, "SignInUrl", value=self.sign_in.base_url())
        CfnOutput(self, "EventBusName", value=self.events.bus.event_bus_name)
        CfnOutput(self, "CdnDomain", value=self.cdn.domain_name)
        if self.live:
            CfnOutput(self, "LiveUrl", value=self.live.url)
        CfnOutput(self, "OperatorsTopicArn", value=self.alarms.topic.topic_arn)
        CfnOutput(self, "DashboardName", value=self.dashboard.dashboard.dashboard_name)
