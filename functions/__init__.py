"""The Lambda functions, one package each (`infra/registry.py` names them).

Lambda's init phase imports `functions.<name>.handler`, this package first. The garbage
collector is paused from here until the handler is made (`tavla.observability.entry` and
`event_entry`, the last line of every handler module): the init makes hundreds of thousands
of objects that live as long as the execution environment (modules, classes, botocore's
and pydantic's tables), and collecting over them cost every cold start tens of milliseconds
for nothing (docs/performance.md, cold start). The handler then freezes them, so no later
collection scans them either, and switches the collector back on.

Pydantic's plugins are switched off before pydantic is imported: the first validator a
process builds otherwise reads the entry points of every installed distribution looking for
a plugin (tavla uses none), which cost the first build tens of milliseconds, at init when a
module makes a model constant, else in the first request (docs/performance.md, cold start).
"""

import gc
import os

gc.disable()
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
