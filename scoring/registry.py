"""Registries of metrics and failure-mode detectors, filled by decorators.

Adding a metric means writing one decorated function and its test::

    @metric("gcf", section="§7.6", layers=("L4", "L7"))
    def gcf(case: Case) -> float | None:
        ...

Three registries, one per calling convention, so that a lookup returns a
callable of a known type:

========================  =============================================  ==========================
registry                  signature                                      decorator
========================  =============================================  ==========================
:data:`metrics`           ``fn(case, **config) -> float | None``         :func:`metric`
:data:`group_metrics`     ``fn(...) -> float | dict | None`` (IVP, SDI)  :func:`group_metric`
:data:`detectors`         ``fn(case, **config) -> FailureFlag``          :func:`failure_mode`
========================  =============================================  ==========================

``None`` from a metric means *not applicable* to this item (no kill gates, no
gold source...), never zero. Lookups by name raise :class:`~ipb.errors.ScoreError`
with a "did you mean" suggestion; :meth:`Registry.create` binds configuration
(for example ``create_metric("kccs", threshold=0.7)``) after checking the
names against the function's signature.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Iterator, TypeVar

from ipb.errors import ScoreError, did_you_mean

__all__ = [
    "Entry",
    "Registry",
    "MetricFn",
    "GroupMetricFn",
    "DetectorFn",
    "metrics",
    "group_metrics",
    "detectors",
    "metric",
    "group_metric",
    "failure_mode",
    "get_metric",
    "get_detector",
    "create_metric",
]

F = TypeVar("F", bound=Callable[..., Any])

#: A per-response metric: ``fn(case, **config) -> float | None``.
MetricFn = Callable[..., "float | None"]
#: A metric over several responses (IVP, SDI).
GroupMetricFn = Callable[..., Any]
#: A failure-mode detector: ``fn(case, **config) -> FailureFlag``.
DetectorFn = Callable[..., Any]

#: Modules whose import registers the built-in entries.
_BUILTIN_MODULES = ("ipb.scoring.metrics", "ipb.scoring.fmdp")


@dataclass(frozen=True)
class Entry(Generic[F]):
    """One registered function and what the paper says about it.

    Attributes
    ----------
    name : str
        Registry key (``"ogrs_k"``, ``"FM-3"``).
    fn : callable
        The function itself.
    section : str
        Paper section defining it (``"§7.6"``).
    summary : str
        First line of the docstring.
    bounds : (float, float) or None
        Closed range of the value, for property tests and schema.
    layers : tuple of str
        Layers whose composite uses it (empty: diagnostic only).
    options : tuple of str
        Keyword-only configuration names accepted by :meth:`Registry.create`.
    """

    name: str
    fn: F
    section: str
    summary: str
    bounds: tuple[float, float] | None = (0.0, 1.0)
    layers: tuple[str, ...] = ()
    options: tuple[str, ...] = field(default=())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)


def _origin(fn: Callable[..., Any]) -> tuple[str, str]:
    """Module and qualified name: re-importing a module re-registers, not duplicates."""
    return (getattr(fn, "__module__", ""), getattr(fn, "__qualname__", repr(fn)))


class Registry(Generic[F]):
    """Name -> :class:`Entry` table with a registering decorator.

    Parameters
    ----------
    kind : str
        What the entries are (used in error messages): ``"metric"``...

    Examples
    --------
    >>> reg: Registry[Callable[..., float]] = Registry("toy")
    >>> @reg.register("one", section="§0")
    ... def one(case: object) -> float:
    ...     '''Always one.'''
    ...     return 1.0
    >>> reg.get("one").summary, reg.get("one")(None)
    ('Always one.', 1.0)
    >>> reg.get("onee")
    Traceback (most recent call last):
    ipb.errors.ScoreError: score error: unknown toy 'onee' (did you mean 'one'?)
    """

    def __init__(self, kind: str, *, builtin_modules: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self._entries: dict[str, Entry[F]] = {}
        self._builtin_modules = builtin_modules

    def register(
        self,
        name: str,
        *,
        section: str,
        bounds: tuple[float, float] | None = (0.0, 1.0),
        layers: tuple[str, ...] = (),
    ) -> Callable[[F], F]:
        """Decorator adding ``fn`` under ``name``; returns ``fn`` unchanged.

        Raises
        ------
        ScoreError
            ``name`` is already registered to a different function.
        """

        def decorate(fn: F) -> F:
            existing = self._entries.get(name)
            if existing is not None and _origin(existing.fn) != _origin(fn):
                raise ScoreError(f"{self.kind} {name!r} is registered twice", name=name, rule="registry")
            doc = inspect.getdoc(fn) or ""
            params = inspect.signature(fn).parameters.values()
            options = tuple(p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY)
            self._entries[name] = Entry(
                name=name,
                fn=fn,
                section=section,
                summary=doc.splitlines()[0] if doc else "",
                bounds=bounds,
                layers=layers,
                options=options,
            )
            return fn

        return decorate

    def _load_builtins(self) -> None:
        for module in self._builtin_modules:
            importlib.import_module(module)

    def get(self, name: str) -> Entry[F]:
        """The entry called ``name``.

        Raises
        ------
        ScoreError
            No such entry (with the closest registered name as suggestion).
        """
        if name not in self._entries:
            self._load_builtins()
        try:
            return self._entries[name]
        except KeyError:
            raise ScoreError(
                f"unknown {self.kind} {name!r}",
                name=name,
                rule="registry",
                suggestion=did_you_mean(name, list(self._entries)),
            ) from None

    def create(self, name: str, **config: Any) -> F:
        """The function ``name`` with keyword configuration bound.

        Raises
        ------
        ScoreError
            Unknown name, or a configuration key the function does not accept.
        """
        entry = self.get(name)
        unknown = [k for k in config if k not in entry.options]
        if unknown:
            raise ScoreError(
                f"{self.kind} {name!r} has no option {unknown[0]!r}; options: {', '.join(entry.options) or 'none'}",
                name=unknown[0],
                rule="registry",
                suggestion=did_you_mean(unknown[0], list(entry.options)),
            )
        if not config:
            return entry.fn
        bound = functools.partial(entry.fn, **config)
        functools.update_wrapper(bound, entry.fn)
        return bound  # type: ignore[return-value]

    def names(self) -> list[str]:
        """Registered names in registration order."""
        self._load_builtins()
        return list(self._entries)

    def entries(self) -> list[Entry[F]]:
        """Registered entries in registration order."""
        self._load_builtins()
        return list(self._entries.values())

    def __contains__(self, name: object) -> bool:
        self._load_builtins()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())


#: Per-response metrics (GCF, OGRS, KCCS, SAP@k, GRA...).
metrics: Registry[MetricFn] = Registry("metric", builtin_modules=_BUILTIN_MODULES)
#: Metrics over several responses (IVP, SDI).
group_metrics: Registry[GroupMetricFn] = Registry("group metric", builtin_modules=_BUILTIN_MODULES)
#: FMDP failure-mode detectors FM-1 ... FM-6.
detectors: Registry[DetectorFn] = Registry("failure mode", builtin_modules=_BUILTIN_MODULES)

#: Decorator registering a per-response metric.
metric = metrics.register
#: Decorator registering a metric over several responses.
group_metric = group_metrics.register
#: Decorator registering a failure-mode detector.
failure_mode = detectors.register


def get_metric(name: str) -> Entry[MetricFn]:
    """The per-response metric ``name`` (``"ogrs"``, ``"sap@2"``...)."""
    return metrics.get(name)


def get_detector(name: str) -> Entry[DetectorFn]:
    """The failure-mode detector ``name`` (``"FM-1"`` ... ``"FM-6"``)."""
    return detectors.get(name)


def create_metric(name: str, **config: Any) -> MetricFn:
    """The per-response metric ``name`` with its options bound.

    >>> kccs = create_metric("kccs", threshold=0.7)
    >>> kccs.keywords
    {'threshold': 0.7}
    """
    return metrics.create(name, **config)
