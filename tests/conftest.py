"""Suite-wide settings.

Under CI (``CI`` set, as ``.ci/run`` runs) hypothesis draws the same examples on every run
(``derandomize``) and has no per-example deadline, so a property test cannot fail by the luck
of the draw or the load of a shared machine; locally it explores new examples each run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))
