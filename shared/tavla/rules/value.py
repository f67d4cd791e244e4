"""The base of the rules' pydantic models: validated when made, their validator built when
first used rather than when their module is imported.

A Lambda imports every rule its routes might reach, and building every model's validator at
import cost each cold start tens of milliseconds for models a request mostly never makes
(docs/performance.md, cold start).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class RuleModel(BaseModel):
    """A rules value. Subclasses add their own config (frozen ...); pydantic merges it with this."""

    model_config = ConfigDict(defer_build=True)
