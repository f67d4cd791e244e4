"""Keeps jsii's Node end-of-life banner out of synth output; import before aws_cdk.

jsii prints a large warning box when it runs on a Node release past its support date (this
machine has Node 20). It is not about the stack, and it buries real output, so the major
version actually running is acknowledged here, and only that one.
"""

from __future__ import annotations

import os
import shutil
import subprocess

_VARIABLE = "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION"


def silence_node_banner() -> None:
    node = shutil.which("node")
    if node is None or _VARIABLE in os.environ:
        return
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout
    os.environ[_VARIABLE] = version.strip().lstrip("v").split(".")[0]


silence_node_banner()
