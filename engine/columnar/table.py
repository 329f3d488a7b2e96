"""Screens over table files: Parquet, CSV and Arrow in, verdict columns out (``ipb screen``).

Reading and writing use pyarrow (the optional ``export`` extra:
``pip install 'ipb[export]'``). A table column feeds the card input of the same
name unless ``--map COLUMN=INPUT`` says otherwise; ``--unit INPUT=SCALE``
multiplies a number column by K, M, B, T (thousands ... trillions) or divides it
by 100 (``%``) before the card sees it. The scaling is decimal: the cell typed
as ``1.1`` with unit ``M`` is exactly 1,100,000, as the scalar engine would read
``$1.1M``.

Output columns (after the table's own columns unless ``only_results``):
``final_verdict``, ``trigger``, ``regime`` (regime cards), one
``gate_<k>_<id>`` verdict column per gate (PROCEED, REJECT, INCONCLUSIVE or
N/A), and each computed value under its own name (null where the gate did not
run or the value is unknown). A result column whose name the table already
uses gets the suffix ``_ipb`` (``_ipb2``, ``_ipb3``... when that is taken too):
the table's own columns are never overwritten, and ``ipb screen`` says which
result columns were renamed. Parquet and Arrow outputs carry the schema
metadata key ``ipb.screen``: JSON with ``version``, the card id and its
``card_sha256``, ``rows`` and ``rows_decided_by_scalar_engine``.
"""

from __future__ import annotations

import errno
import json
from dataclasses import dataclass, field
from decimal import Context, Decimal
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ipb._files import check_target, write_path_atomic
from ipb.engine.card import Card
from ipb.engine.columnar._constraints import Broken, broken_rows
from ipb.engine.columnar._expr import Vocabulary
from ipb.engine.columnar._inputs import BadColumn, Encoded, each_bad, input_columns, raise_found
from ipb.engine.columnar._run import VERDICT_WORDS, ColumnarResult, execute_columns
from ipb.engine.graph import CompiledCard
from ipb.errors import ErrorGroup, IpbError, LoadError, did_you_mean

__all__ = ["FORMATS", "SCALES", "ScreenResult", "read_table", "write_table", "screen_table", "parse_pairs", "require_pyarrow"]

#: Version of the output table's ``ipb.screen`` schema metadata (Parquet and Arrow keep it; CSV cannot).
SCREEN_VERSION = 1
#: File suffix -> format name.
FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".arrow": "arrow", ".feather": "arrow",
           ".ipc": "arrow"}
#: ``--unit`` scale words -> power of ten applied to the column.
SCALES = {"1": 0, "K": 3, "M": 6, "B": 9, "T": 12, "%": -2}
#: Declared input type -> the ``--unit`` scales that fit it: ``%`` only for a ratio, K-T for money and plain numbers,
#: nothing for a multiple ("1" is no scaling).
UNIT_FITS = {"money": ("1", "K", "M", "B", "T"), "number": ("1", "K", "M", "B", "T"), "ratio": ("1", "%"),
             "multiple": ("1",)}


#: Scaling an exact cell by a power of ten never rounds (cells have at most 60 digits).
_WIDE = Context(prec=200)


def require_pyarrow() -> Any:
    """Import pyarrow, or raise a LoadError naming the extra to install."""
    try:
        import pyarrow
    except ImportError:
        raise LoadError("reading and writing tables needs pyarrow: pip install 'ipb[export]' (the export extra)",
                        rule="dependency") from None
    return pyarrow


def _format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise LoadError(f"cannot tell the table format of {path.name!r}; use one of " + ", ".join(sorted(FORMATS)),
                        file=str(path), rule="format")
    return fmt


def read_table(path: Path) -> Any:
    """Read a Parquet, CSV or Arrow IPC (Feather v2) file into a ``pyarrow.Table``.

    Raises
    ------
    LoadError
        Unknown suffix, missing file, or a file pyarrow cannot read (its
        message included).
    """
    pa = require_pyarrow()
    fmt = _format(path)
    if not path.exists():
        raise LoadError(f"no such table file: {path}", file=str(path), rule="file")
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return pq.read_table(path)
        if fmt == "csv":
            import pyarrow.csv as pcsv

            table = pcsv.read_csv(path)
            numeric = [f.name for f in table.schema if pa.types.is_integer(f.type) or pa.types.is_floating(f.type)]
            if not numeric:
                return table
            # Numbers are kept as their text and read exactly by ipb's number reader, never through a
            # 64-bit float (issue 16: 20000000.0000000001 and 2^64 + 1 were rounded).
            return pcsv.read_csv(path, convert_options=pcsv.ConvertOptions(
                column_types={name: pa.string() for name in numeric}))
        import pyarrow.feather as feather

        return feather.read_table(path)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as exc:
        raise LoadError(f"cannot read {fmt} table: {exc}", file=str(path), rule=fmt) from None


def _unique_columns(table: Any, file: str | None) -> None:
    """A column name twice (a CSV header can repeat one) is an error naming it, before any lookup by name."""
    seen: set[str] = set()
    for name in table.column_names:
        if name in seen:
            raise LoadError(f"the table has two columns named {name!r}; rename one (or map it with --map)",
                            file=file, rule="column", name=name)
        seen.add(name)


def check_output(path: Path) -> str:
    """The format of output ``path`` (from its suffix), after refusing a target that is not a regular file.

    A FIFO, device (``/dev/null``), socket or folder gets the message every ipb command gives
    (:func:`ipb._files.check_target`) before the suffix is looked at, so ``--out /dev/null`` is not
    "cannot tell the table format". Called before the table is read, so nothing is computed for an
    output that cannot be written.
    """
    try:
        check_target(path)
    except OSError as exc:
        raise LoadError(f"cannot write {path}: {exc.strerror or exc}", file=str(path), rule="file") from None
    return _format(path)


def write_table(table: Any, path: Path) -> None:
    """Write ``table`` to ``path`` in the format its suffix names, atomically (:func:`ipb._files.write_path_atomic`:
    a temporary file, then rename; the mode a plain ``open()`` gives; a symlink replaced, never written through)."""
    pa = require_pyarrow()
    fmt = check_output(path)

    def write(tmp: str) -> None:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, tmp)
        elif fmt == "csv":
            import pyarrow.csv as pcsv

            plain = pa.table({name: (col.cast(pa.string()) if pa.types.is_dictionary(col.type) else col)
                              for name, col in zip(table.column_names, table.columns)})
            pcsv.write_csv(plain, tmp)
        else:
            import pyarrow.feather as feather

            feather.write_feather(table, tmp)

    try:
        write_path_atomic(path, write, make_parents=True)
    except OSError as exc:
        if exc.errno == errno.EINVAL and exc.filename == str(path):
            raise LoadError(f"cannot write {path}: {exc.strerror or exc}", file=str(path), rule="file") from None
        raise


def parse_pairs(items: Sequence[str], what: str) -> dict[str, str]:
    """``["a=b", ...]`` -> ``{"a": "b"}``; a LoadError names the bad item.

    A name given twice with two values (``--unit x=M --unit x=B``, ``--map c=a --map c=b``) is a usage
    error (rule ``usage``): the last one would otherwise win without a word. The same pair twice is fine.

    >>> parse_pairs(["x=M", "x=M", "y=B"], "--unit")
    {'x': 'M', 'y': 'B'}
    >>> parse_pairs(["x=M", "x=B"], "--unit")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ipb.errors.LoadError: load error: --unit x is given twice, as 'M' and as 'B'; give it once
    """
    pairs: dict[str, str] = {}
    for item in items:
        left, sep, right = item.partition("=")
        if not sep or not left.strip() or not right.strip():
            raise LoadError(f"{what} {item!r} must look like NAME=VALUE", rule=what.lstrip("-"))
        name, value = left.strip(), right.strip()
        if name in pairs and pairs[name] != value:
            raise LoadError(f"{what} {name} is given twice, as {pairs[name]!r} and as {value!r}; give it once",
                            rule="usage", name=name)
        pairs[name] = value
    return pairs


@dataclass
class ScreenResult:
    """What :func:`screen_table` produced: the output table and the columnar result."""

    table: Any
    result: ColumnarResult
    unmapped: list[str]
    #: Result column -> the name it was written under, because the table already has a column of that name.
    renamed: dict[str, str] = field(default_factory=dict)
    #: Input -> the one column whose header differs from the input's name only in case or surrounding spaces
    #: (``"Market_Value "`` for ``market_value``), read as that input; ``ipb screen`` lists each.
    matched: dict[str, str] = field(default_factory=dict)
    #: Unmapped input -> the closest column header (case ignored), for a "did you mean" with ``--map``.
    hints: dict[str, str] = field(default_factory=dict)
    #: Input read from its exact (or ``--map``) column -> (that column, the other headers equal to the input's name
    #: but for case and surrounding spaces, which are not read: ``"MARKET_VALUE "`` beside ``market_value``).
    ignored: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    #: Unmapped input -> the two or more headers that each differ from its name only in case or spaces, so none
    #: is read; ``ipb screen`` says which, and that ``--map`` picks one.
    ambiguous: dict[str, list[str]] = field(default_factory=dict)
    #: The rows that break the card's ``constraints:`` (:mod:`._constraints`); ``ipb screen`` warns about each.
    broken: Broken = field(default_factory=Broken)


def screen_table(
    compiled: CompiledCard,
    table: Any,
    *,
    mapping: Mapping[str, str] | None = None,
    units: Mapping[str, str] | None = None,
    only_results: bool = False,
    file: str | None = None,
    progress: Callable[[int], None] | None = None,
    exact: bool = True,
) -> ScreenResult:
    """Run ``compiled`` on every row of ``table`` (a ``pyarrow.Table``).

    Parameters
    ----------
    mapping:
        Table column -> card input (``--map COLUMN=INPUT``); other inputs are
        read from the column of their own name, or are unknown on every row.
    units:
        Card input -> scale word of :data:`SCALES` (``--unit INPUT=M``).
    file:
        The table's file name, for error messages (a CSV row is also given as
        its file line: row + 2, after the header).

    Raises
    ------
    LoadError
        A mapping or unit names a column or input that does not exist (with a
        "did you mean"), or a column's values do not fit the input type
        (naming the column and the first bad row).
    """
    pa = require_pyarrow()
    card = compiled.card
    mapping = dict(mapping or {})
    units = dict(units or {})
    _unique_columns(table, file)
    names = list(table.column_names)
    source: dict[str, str] = {}
    for column, input_name in mapping.items():
        others = [c for c, i in mapping.items() if i == input_name and c != column]
        if others:
            raise LoadError(f"--map: input {input_name!r} is given two columns ({column!r} and {others[0]!r})",
                            file=file, rule="usage", name=input_name)  # contradicting options: exit 2
    for column, input_name in mapping.items():
        if column not in names:
            raise LoadError(f"--map: the table has no column {column!r}", file=file, rule="map", name=column,
                            suggestion=did_you_mean(column, names))
        if input_name not in card.inputs:
            raise LoadError(f"--map: card {card.id} has no input {input_name!r}", file=file, rule="map",
                            name=input_name, suggestion=did_you_mean(input_name, list(card.inputs)))
        source[input_name] = column
    for input_name in card.inputs:
        if input_name not in source and input_name in names:
            source[input_name] = input_name
    loose = _loose_headers(list(card.inputs), names, source, mapping)
    source.update(loose.matched)
    for input_name, scale in units.items():
        if input_name not in card.inputs:
            raise LoadError(f"--unit: card {card.id} has no input {input_name!r}", file=file, rule="unit",
                            name=input_name, suggestion=did_you_mean(input_name, list(card.inputs)))
        if scale.upper() not in SCALES:
            raise LoadError(f"--unit {input_name}={scale}: the scale must be one of " + ", ".join(SCALES), file=file,
                            rule="unit", name=input_name)
        if card.inputs[input_name].expr_type.kind != "number":
            raise LoadError(f"--unit: input {input_name!r} is not a number", file=file, rule="unit", name=input_name)
        declared = card.inputs[input_name].type
        fits = UNIT_FITS.get(declared, ("1",))
        if scale.upper() not in fits:
            takes = ", ".join(f for f in fits if f != "1")
            raise LoadError(f"--unit {input_name}={scale}: input {input_name!r} is of type {declared}, "
                            + (f"whose column may be given in {takes}" if takes else "whose column takes no scale")
                            + " (% is for ratio inputs; K, M, B, T for money and numbers)", file=file, rule="usage",
                            name=input_name)
    columns: dict[str, Any] = {}
    bad: list[IpbError] = []  # every column's bad cells, then one error listing them all (collect, not stop)
    for input_name, column in source.items():
        try:
            columns[input_name] = _column(pa, card, input_name, table.column(column), units.get(input_name))
        except BadColumn as exc:
            bad.extend(_located(one, column, file) for one in each_bad(exc))
    if not bad:
        try:
            result = execute_columns(compiled, columns, table.num_rows, progress=progress, exact=exact)
        except BadColumn as exc:
            bad.extend(_located(one, source.get(one.name or "", one.name or "?"), file) for one in each_bad(exc))
    else:
        # the columns read so far are checked too, so that a bad true/false or category cell is not left for
        # the next run
        try:
            input_columns(card, columns, table.num_rows, Vocabulary())
        except BadColumn as exc:
            bad.extend(_located(one, source.get(one.name or "", one.name or "?"), file) for one in each_bad(exc))
    if len(bad) == 1:
        raise bad[0]
    if bad:
        raise ErrorGroup(bad)
    renamed: dict[str, str] = {}
    broken = broken_rows(compiled, columns, table.num_rows)
    out = _output(pa, card, result, [] if only_results else names, table, renamed, broken)
    return ScreenResult(out, result, [n for n in card.inputs if n not in source], renamed, loose.matched,
                        loose.hints, loose.ignored, loose.ambiguous, broken)


@dataclass
class _Loose:
    """What :func:`_loose_headers` found (the :class:`ScreenResult` fields of the same names)."""

    matched: dict[str, str] = field(default_factory=dict)
    hints: dict[str, str] = field(default_factory=dict)
    ignored: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    ambiguous: dict[str, list[str]] = field(default_factory=dict)


def _loose_headers(inputs: list[str], names: list[str], source: Mapping[str, str],
                   mapping: Mapping[str, str]) -> _Loose:
    """Inputs without a column of their exact name: the one header equal to the name but for case and surrounding
    spaces (read as the input), and otherwise the closest header (case ignored) as a hint.

    A header is never taken twice, nor when it is given to another input by ``--map``; two headers that both
    differ only in case (``MARKET_VALUE`` and ``Market_Value``) are ambiguous: neither is read, the first is hinted.
    An input that has its column (exact name or ``--map``) lists the free variants of its name as ignored.

    >>> _loose_headers(["market_value", "ncav", "shares"], ["Market_Value ", "NCAV", "ncav_total", "shrs"], {}, {})
    _Loose(matched={'market_value': 'Market_Value ', 'ncav': 'NCAV'}, hints={'shares': 'shrs'}, ignored={}, ambiguous={})
    >>> _loose_headers(["mv", "ncav"], ["mv", "MV ", "NCAV", "Ncav"], {"mv": "mv"}, {})
    _Loose(matched={}, hints={'ncav': 'NCAV'}, ignored={'mv': ('mv', ['MV '])}, ambiguous={'ncav': ['NCAV', 'Ncav']})
    """
    taken = set(source.values()) | set(mapping)
    found = _Loose()
    free = [c for c in names if c not in taken]
    for input_name in inputs:
        same = [c for c in free if c.strip().casefold() == input_name.casefold() and c not in found.matched.values()]
        if input_name in source:
            if same:
                found.ignored[input_name] = (source[input_name], same)
            continue
        if len(same) == 1:
            found.matched[input_name] = same[0]
            continue
        if len(same) > 1:
            found.ambiguous[input_name] = same
        close = same[0] if same else did_you_mean(input_name.casefold(), [c.strip().casefold() for c in free])
        if close is not None:
            found.hints[input_name] = next((c for c in free if c == close or c.strip().casefold() == close), close)
    return found


def _located(exc: BadColumn, column: str, file: str | None) -> LoadError:
    where = f"column {column!r}"
    line = None
    if exc.row is not None:
        where += f", row {exc.row}"
        if file is not None and file.lower().endswith(".csv"):
            line = exc.row + 2
            where += f" (line {line})"
    detail = exc.message.split(": ", 1)[1] if ": " in exc.message else exc.message
    err = LoadError(f"{where}: {detail}", file=file, line=line, column=None, rule="column", name=column,
                    suggestion=exc.suggestion)
    return err


def _column(pa: Any, card: Card, name: str, col: Any, scale: str | None) -> Any:
    """One table column as the columnar executor's input for ``name``."""
    import pyarrow.compute as pc

    kind = card.inputs[name].expr_type.kind
    t = col.type
    if pa.types.is_null(t):  # an empty column (a CSV column with no values): unknown on every row
        return np.full(len(col), np.nan) if kind == "number" else np.full(len(col), None, dtype=object)
    if kind == "number":
        if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_dictionary(t):
            numbers = _parse_numbers(pa, pc, card.inputs[name], col)
            if scale and SCALES[scale.upper()]:
                numbers = _scale_any(numbers, SCALES[scale.upper()])
            return numbers
        if pa.types.is_boolean(t):
            raise BadColumn(f"input {name!r}: a number column holds true/false values", name=name, row=0)
        elif not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)):
            raise BadColumn(f"input {name!r}: a number column has type {t}", name=name)
        if pa.types.is_integer(t) and col.null_count == 0 and not scale:
            return col.to_numpy()
        values = pc.cast(col, pa.float64()).to_numpy(zero_copy_only=False)
        if scale and SCALES[scale.upper()]:
            values = _scale(values, SCALES[scale.upper()])
        return values
    if kind == "category":
        if not (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_dictionary(t)):
            col = pc.cast(col, pa.string())
        encoded = col.combine_chunks() if hasattr(col, "combine_chunks") else col
        if not pa.types.is_dictionary(encoded.type):
            encoded = pc.dictionary_encode(encoded)
        codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int32)
        return Encoded(codes, [str(w) for w in encoded.dictionary.to_pylist()])
    if kind == "bool":
        if pa.types.is_boolean(t):
            return np.array(col.to_pylist(), dtype=object) if col.null_count else col.to_numpy(zero_copy_only=False)
        return np.array(col.to_pylist(), dtype=object)
    if kind == "date":
        if pa.types.is_date(t) or pa.types.is_timestamp(t):
            return pc.cast(col, pa.date32()).to_numpy(zero_copy_only=False).astype("datetime64[D]")
        return np.array(col.to_pylist(), dtype=object)
    raise BadColumn(f"input {name!r} has type {kind}, which tables do not support", name=name)  # pragma: no cover


#: The most unreadable cells of one number column that ``ipb screen`` lists (then it stops reading that column).
MAX_BAD_CELLS = 20


def _parse_numbers(pa: Any, pc: Any, spec: Any, col: Any) -> Any:
    """A text column of numbers (a CSV whose cells carry units or signs pyarrow does not read).

    Plain numbers are read by pyarrow; otherwise every cell is read like a
    scenario fact (:func:`ipb.engine.scenario.convert_fact`: ``95%``, ``$5B``,
    ``($7M)``, ``1,234.5``; a unit that contradicts the input is an error).
    Every unreadable cell (the first :data:`MAX_BAD_CELLS`) is a located error.
    """
    from ipb.engine.scenario import convert_fact

    text = pc.cast(col, pa.string())
    try:
        floats = pc.cast(text, pa.float64())
    except pa.ArrowInvalid:
        floats = None
    if floats is not None:
        # A cell of at most 15 characters has at most 15 significant digits, so its float's shortest
        # repr is its value; a longer one (20000000.0000000001, 2^64 + 1) is read exactly below.
        long = pc.fill_null(pc.greater(pc.utf8_length(pc.utf8_trim_whitespace(text)), 15), False)
        values = floats.to_numpy(zero_copy_only=False)
        if not pc.any(long).as_py():
            return values
        exact = values.astype(object)
        cells = text.to_pylist()
        for i in np.flatnonzero(long.to_numpy(zero_copy_only=False)).tolist():
            exact[i] = _exact_cell(spec, cells[i], i, convert_fact)
        return np.where(np.isnan(values), None, exact)
    out = np.full(len(text), None, dtype=object)
    found: list[BadColumn] = []
    for i, cell in enumerate(text.to_pylist()):
        if cell is not None and cell.strip():
            try:
                out[i] = _exact_cell(spec, cell, i, convert_fact)
            except BadColumn as exc:
                found.append(exc)
                if len(found) == MAX_BAD_CELLS:
                    break  # a column of text where numbers belong: enough said
    raise_found(found)
    return out


def _exact_cell(spec: Any, cell: str, row: int, convert_fact: Any) -> Any:
    """One text cell read like a scenario fact (exact Decimal), or a located BadColumn."""
    try:
        return convert_fact(spec, cell.strip(), strict=True)
    except IpbError as exc:
        raise BadColumn(f"input {spec.name!r}, row {row}: {cell!r} is not a {spec.type} ({exc.message})",
                        name=spec.name, row=row) from None


def _scale_any(values: np.ndarray, power: int) -> np.ndarray:
    """``values * 10**power``: a float array as :func:`_scale`; exact cells (Decimals) by their decimal exponent."""
    if values.dtype != object:
        return _scale(values, power)
    out = np.full(len(values), None, dtype=object)
    for i, x in enumerate(values.tolist()):
        if x is not None and x == x:
            d = x if isinstance(x, Decimal) else Decimal(repr(x))
            out[i] = d.scaleb(power, _WIDE)
    return out


def _scale(values: np.ndarray, power: int) -> np.ndarray:
    """``values * 10**power`` in decimal: each float read as its shortest repr, then re-rounded once."""
    known = ~np.isnan(values)
    if not known.all():
        filled = np.where(known, values, 0.0)
    else:
        filled = values
    if power >= 0 and bool(np.all(filled == np.rint(filled))) and bool(np.all(np.abs(filled) < 2.0 ** 53 / 10 ** power)):
        scaled = filled * float(10 ** power)
    else:
        scaled = np.char.add(filled.astype(str), f"e{power}").astype(np.float64)
    return np.where(known, scaled, np.nan)


def _output(pa: Any, card: Card, result: ColumnarResult, keep: list[str], table: Any,
            renamed: dict[str, str] | None = None, broken: Broken | None = None) -> Any:
    taken = set(keep)

    def fresh(name: str) -> str:
        """``name``, or the first of ``name_ipb``, ``name_ipb2``, ``name_ipb3``... that no column has (the table's own
        columns are never overwritten); ``renamed`` records each renaming."""
        chosen, k = name, 1
        while chosen in taken:
            chosen = f"{name}_ipb" if k == 1 else f"{name}_ipb{k}"
            k += 1
        taken.add(chosen)
        if chosen != name and renamed is not None:
            renamed[name] = chosen
        return chosen

    def words(codes: np.ndarray, vocab: Sequence[str]) -> Any:
        return pa.DictionaryArray.from_arrays(pa.array(codes, type=pa.int32(), mask=codes < 0),
                                              pa.array(list(vocab), type=pa.string()))

    arrays = [table.column(n) for n in keep]
    names = list(keep)
    names.append(fresh("final_verdict"))
    arrays.append(words(result.outcome, result.outcomes))
    names.append(fresh("trigger"))
    arrays.append(words(result.trigger, result.triggers))
    if result.regime is not None:
        names.append(fresh("regime"))
        arrays.append(words(result.regime, result.regimes))
    for g in card.gates:
        names.append(fresh(f"gate_{g.number}_{g.id}"))
        arrays.append(words(result.verdicts[g.number - 1].astype(np.int32), VERDICT_WORDS))
    for name, (values, ok) in result.computed.items():
        names.append(fresh(name))
        arrays.append(pa.array(values, type=pa.float64(), mask=~ok))
    if card.constraints:  # the ids of the constraints each row breaks, null where it breaks none
        names.append(fresh("constraints_broken"))
        arrays.append(words(*(broken or Broken()).column(result.n)))
    meta = {"version": SCREEN_VERSION, "card": card.id, "card_sha256": card.content_hash, "rows": result.n,
            "rows_decided_by_scalar_engine": result.fallback}
    return pa.table(arrays, names=names).replace_schema_metadata({"ipb.screen": json.dumps(meta, sort_keys=True)})
