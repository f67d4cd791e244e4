"""Settings for every test level.

Under CI (`CI=true`, as `.ci/run` runs) hypothesis explores the same examples on every run,
so a landing never depends on the luck of the draw; on a developer's machine it keeps
exploring new ones (and remembers failures in `.hypothesis/`). `make test-fast` asks for the
`quick` profile (`HYPOTHESIS_PROFILE=quick`): every property still runs, on 10 examples.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("quick", max_examples=10)
if os.environ.get("CI"):
    settings.load_profile("ci")
elif os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
