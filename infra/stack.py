"""The whole Tavla platform as one stack, assembled from the registry, one construct per concern."""

from __future__ import annotations

from aws_cdk import CfnOutput, Stack
from constructs import Construct

from infra.alarms import Alarms
from infra.api import Api
from infra.auth import Auth
from infra.card_payments import CardPayments
from infra.cdn import Cdn
from infra.events import Events
from infra.lambdas import Lambdas
from infra.notifications import Notifications
from infra.pass_key import PassKey
from infra.registry import FUNCTIONS, Function
from infra.scheduler import Scheduling
from infra.tables import Tables


class TavlaStack(Stack):
    def __init__(
        self, scope: Construct, construct_id: str, functions: tuple[Function, ...] = FUNCTIONS
    ) -> None:
        super().__init__(scope, construct_id, description="Tavla: physical backgammon tournaments")
        self.tables = Tables(self, "Tables")
        self.lambdas = Lambdas(self, "Functions", functions)
        by_name = self.lambdas.by_name
        for spec in functions:
            for table, access in spec.table_specs():
                self.tables.grant(by_name[spec.name], table, access)
                by_name[spec.name].add_environment(table.env_var, self.tables.by_name[table.name].table_name)
        self.events = Events(self, "Events", self.lambdas)
        self.scheduling = Scheduling(self, "Scheduler", self.lambdas, self.events.dead_letters)
        self.notifications = Notifications(self, "Notifications", self.lambdas)
        self.pass_key = PassKey(self, "PassKey", self.lambdas)
        self.auth = Auth(self, "Auth")
        self.api = Api(self, "Api", self.lambdas, self.auth)
        self.cdn = Cdn(self, "Cdn", functions, self.api.http_api.api_id)
        self.card_payments = CardPayments(
            self, "CardPayments", self.lambdas, return_url=f"https://{self.cdn.domain_name}"
        )
        self.alarms = Alarms(self, "Alarms", lambdas=self.lambdas, dead_letters=self.events.dead_letters)

        CfnOutput(self, "ApiUrl", value=self.api.url)
        CfnOutput(self, "UserPoolId", value=self.auth.user_pool.user_pool_id)
        CfnOutput(self, "UserPoolClientId", value=self.auth.client.user_pool_client_id)
        CfnOutput(self, "EventBusName", value=self.events.bus.event_bus_name)
        CfnOutput(self, "CdnDomain", value=self.cdn.domain_name)
        CfnOutput(self, "OperatorsTopicArn", value=self.alarms.topic.topic_arn)
