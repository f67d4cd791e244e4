"""Reading the synthesized template: who may do what, on which resource."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from aws_cdk import Stack, assertions

from infra.registry import Function
from infra.stack import TavlaStack


@dataclass
class SynthesizedTemplate:
    """Any synthesized stack of the app (the regional ones and the us-east-1 edge ones)."""

    stack: Stack
    template: assertions.Template
    annotations: assertions.Annotations
    outdir: Path

    @cached_property
    def json(self) -> dict[str, Any]:
        """The template as JSON, read once: each `to_json` crosses into Node (jsii) and takes
        seconds for a stack this size, and a synthesized stack never changes."""
        template: dict[str, Any] = dict(self.template.to_json())
        return template

    @property
    def resources(self) -> dict[str, Any]:
        resources: dict[str, Any] = self.json["Resources"]
        return resources


@dataclass
class Synthesized(SynthesizedTemplate):
    """A regional Tavla stack and the registry functions it was built from."""

    stack: TavlaStack
    functions: tuple[Function, ...]

    def logical_id(self, construct: Any) -> str:
        return str(self.stack.get_logical_id(construct.node.default_child))


def render(value: Any) -> str:
    """A CloudFormation value as readable text: <Logical.Attr> for references."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and "Ref" in value:
        return f"<{value['Ref']}>"
    if isinstance(value, dict) and "Fn::GetAtt" in value:
        return "<{}.{}>".format(*value["Fn::GetAtt"])
    if isinstance(value, dict) and "Fn::Join" in value:
        separator, parts = value["Fn::Join"]
        return str(separator).join(render(p) for p in parts)
    return repr(value)


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def statements(synth: Synthesized, name: str) -> list[dict[str, Any]]:
    """Every IAM statement attached to the role of registry function `name`."""
    role = synth.stack.lambdas.by_name[name].role
    role_id = synth.logical_id(role)
    found = []
    for resource in synth.resources.values():
        if resource["Type"] == "AWS::IAM::Policy" and {"Ref": role_id} in resource["Properties"]["Roles"]:
            found.extend(resource["Properties"]["PolicyDocument"]["Statement"])
    return found


def actions_on(synth: Synthesized, name: str, prefix: str) -> dict[str, set[str]]:
    """Resource (rendered) -> actions starting with `prefix` that function `name` may take on it."""
    granted: dict[str, set[str]] = {}
    for statement in statements(synth, name):
        assert statement["Effect"] == "Allow"
        actions = {a for a in as_list(statement["Action"]) if a.startswith(prefix)}
        if actions:
            for resource in as_list(statement["Resource"]):
                granted.setdefault(render(resource), set()).update(actions)
    return granted


def environment(synth: Synthesized, name: str) -> dict[str, Any]:
    function_id = synth.logical_id(synth.stack.lambdas.by_name[name])
    variables: dict[str, Any] = synth.resources[function_id]["Properties"]["Environment"]["Variables"]
    return variables
