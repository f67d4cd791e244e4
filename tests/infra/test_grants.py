"""Least privilege from the registry: each function reaches exactly its declared tables,
with the declared access, and the private contacts table only where the registry says (R12)."""

from __future__ import annotations

import pytest

from infra.registry import OUTBOX_TABLE
from tavla.store.schema import CONTACTS, TABLES
from tests.infra.helpers import Synthesized, actions_on, as_list, environment, statements

pytestmark = pytest.mark.infra

WRITES = {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"}
READS = {"dynamodb:GetItem", "dynamodb:Query", "dynamodb:BatchGetItem"}
READ_ONLY_PREFIXES = (
    "dynamodb:Get",
    "dynamodb:BatchGet",
    "dynamodb:Query",
    "dynamodb:Scan",
    "dynamodb:Describe",
    "dynamodb:ConditionCheck",
)


def _table_resources(synth: Synthesized, spec) -> set[str]:
    arn = f"<{synth.logical_id(synth.stack.tables.by_name[spec.name])}.Arn>"
    return {arn, *(f"{arn}/index/{index.name}" for index in spec.indexes)}


# the outbox's publisher reads the table's stream (Lambda's event source mapping polls it with the
# function's role); ListStreams has no resource-level permission in IAM, so it alone is on "*"
STREAM_READS = {"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator"}
LIST_STREAMS = {"dynamodb:ListStreams"}


def _stream_grants(synth: Synthesized, spec) -> dict[str, set[str]]:
    if not spec.drains_outbox:
        return {}
    table = synth.logical_id(synth.stack.tables.by_name[OUTBOX_TABLE.name])
    return {f"<{table}.StreamArn>": STREAM_READS, "*": LIST_STREAMS}


def test_each_function_reaches_exactly_its_declared_tables_and_indexes(each_stack: Synthesized) -> None:
    for spec in each_stack.functions:
        granted = actions_on(each_stack, spec.name, "dynamodb:")
        streams = _stream_grants(each_stack, spec)
        assert {r: granted.pop(r, None) for r in streams} == streams, spec.name
        expected = set().union(*(_table_resources(each_stack, t) for t, _ in spec.table_specs()))
        assert set(granted) == expected, spec.name
        for table, access in spec.table_specs():
            for resource in _table_resources(each_stack, table):
                actions = granted[resource]
                assert actions >= READS, (spec.name, table.name)
                if access == "read":
                    assert all(a.startswith(READ_ONLY_PREFIXES) for a in actions), (
                        spec.name,
                        table.name,
                        actions,
                    )
                else:
                    assert actions >= WRITES, (spec.name, table.name)


def test_no_dynamodb_action_on_a_wildcard_resource(each_stack: Synthesized) -> None:
    """Only ListStreams, which IAM cannot scope, and only for the outbox's publisher."""
    for spec in each_stack.functions:
        for resource, actions in actions_on(each_stack, spec.name, "dynamodb:").items():
            if resource == "*" and spec.drains_outbox:
                assert actions == LIST_STREAMS, spec.name
                continue
            assert "*" not in resource, (spec.name, resource)


def test_contacts_table_is_readable_only_by_functions_that_declare_it(each_stack: Synthesized) -> None:
    """R12: IAM, not only code, keeps contact data from functions with no business reading it."""
    contacts_id = each_stack.logical_id(each_stack.stack.tables.by_name[CONTACTS.name])
    roles_with_access: set[str] = set()
    for resource in each_stack.resources.values():
        if resource["Type"] == "AWS::IAM::Policy" and contacts_id in str(
            resource["Properties"]["PolicyDocument"]
        ):
            roles_with_access.update(r["Ref"] for r in resource["Properties"]["Roles"])
    declaring = {
        each_stack.logical_id(each_stack.stack.lambdas.by_name[f.name].role)
        for f in each_stack.functions
        if CONTACTS.name in f.tables
    }
    assert roles_with_access == declaring


def test_table_names_reach_the_functions_through_their_declared_variables(each_stack: Synthesized) -> None:
    for spec in each_stack.functions:
        env = environment(each_stack, spec.name)
        declared = {t.env_var for t, _ in spec.table_specs()}
        assert {k for k in env if k.startswith("TABLE_")} == declared, spec.name
        for table, _ in spec.table_specs():
            assert env[table.env_var] == {
                "Ref": each_stack.logical_id(each_stack.stack.tables.by_name[table.name])
            }
    used = {
        k for f in each_stack.functions for k in environment(each_stack, f.name) if k.startswith("TABLE_")
    }
    assert used <= {t.env_var for t in TABLES}


def test_only_email_senders_may_send_email(each_stack: Synthesized) -> None:
    """R6.2: table calls by e-mail where the player chose it; nobody else may send mail."""
    for spec in each_stack.functions:
        ses = actions_on(each_stack, spec.name, "ses:")
        assert set().union(*ses.values()) == ({"ses:SendEmail"} if spec.sends_email else set()), spec.name


def test_only_sms_senders_may_publish_and_only_pass_key_readers_read_the_secret(
    each_stack: Synthesized,
) -> None:
    """R12: each secret is readable by the functions the registry says, and by nothing else
    (the pass key by `reads_pass_key`, the card provider's keys by `card_payments`, the push
    key by `reads_push_key`)."""
    secret_id = each_stack.logical_id(each_stack.stack.pass_key.secret)
    provider_id = each_stack.logical_id(each_stack.stack.card_payments.secret)
    push_id = each_stack.logical_id(each_stack.stack.notifications.push_key)
    read = {"secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"}
    for spec in each_stack.functions:
        sns = actions_on(each_stack, spec.name, "sns:")
        assert sns == ({"*": {"sns:Publish"}} if spec.sends_sms else {}), spec.name
        secrets = actions_on(each_stack, spec.name, "secretsmanager:")
        expected = {}
        if spec.reads_pass_key:
            expected[f"<{secret_id}>"] = read
        if spec.card_payments:
            expected[f"<{provider_id}>"] = read
        if spec.reads_push_key:
            expected[f"<{push_id}>"] = read
        assert secrets == expected, spec.name
        variables = environment(each_stack, spec.name)
        if spec.reads_pass_key:
            assert variables["PASS_KEY_SECRET_ID"] == {"Ref": secret_id}
        else:
            assert "PASS_KEY_SECRET_ID" not in variables
        if spec.card_payments:
            assert variables["PAYMENT_PROVIDER_SECRET_ID"] == {"Ref": provider_id}
        else:
            assert "PAYMENT_PROVIDER_SECRET_ID" not in variables
        assert ("PUSH_KEY_SECRET_ID" in variables) == spec.reads_push_key, spec.name


def test_functions_have_no_managed_policies_and_no_unexpected_services(each_stack: Synthesized) -> None:
    expected_services = {
        "logs",
        "xray",
        "dynamodb",
        "sns",
        "ses",
        "secretsmanager",
        "events",
        "scheduler",
        "iam",
        "sqs",
        "appsync",  # the live channel's publisher: appsync:EventPublish on its own Event API
        "cognito-idp",  # the platform's groups, only (the test below)
        "s3",  # the statement store, only (tests/infra/test_statement_files.py)
    }
    for spec in each_stack.functions:
        role_id = each_stack.logical_id(each_stack.stack.lambdas.by_name[spec.name].role)
        assert "ManagedPolicyArns" not in each_stack.resources[role_id]["Properties"]
        for statement in statements(each_stack, spec.name):
            for action in as_list(statement["Action"]):
                assert action.split(":")[0] in expected_services, (spec.name, action)


def test_only_role_managing_functions_touch_the_user_pool_and_only_its_groups(
    each_stack: Synthesized,
) -> None:
    """R1.3, R12: the function that grants platform roles may add users to and remove them from
    the pool's groups, the one that erases accounts may delete a user, each on that pool alone;
    no function may do anything else to it."""
    from infra.auth import ERASE_ACTIONS, ROLE_ACTIONS
    from tavla.caller import USER_POOL_ENV

    pool = f"<{each_stack.logical_id(each_stack.stack.auth.user_pool)}.Arn>"
    for spec in each_stack.functions:
        granted = actions_on(each_stack, spec.name, "cognito-idp:")
        expected = {
            *(ROLE_ACTIONS if spec.manages_roles else ()),
            *(ERASE_ACTIONS if spec.erases_users else ()),
        }
        if expected:
            assert granted == {pool: expected}, spec.name
            assert USER_POOL_ENV in environment(each_stack, spec.name)
        else:
            assert granted == {}, spec.name


def test_the_federation_function_manages_roles(synthesized: dict[str, Synthesized]) -> None:
    real = synthesized["real"]
    assert real.stack.lambdas.by_name["federation"]
    assert any(spec.manages_roles for spec in real.functions)
