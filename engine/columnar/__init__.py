"""Columnar batch execution: a card as a screen over whole tables (issue 21).

``execute_columns(compiled, columns)`` runs one compiled card on every row of a
table of input columns at once and returns verdict columns (per gate, final
verdict, trigger, regime) and the computed values; it gives the same verdicts as
:func:`ipb.engine.execute.execute` on every row (a property test checks this on
random scenarios of every bundled card). Table files (Parquet, CSV, Arrow) are
read and written by :mod:`ipb.engine.columnar.table`, which needs pyarrow (the
``export`` extra).
"""

from ipb.engine.columnar._inputs import BadColumn, Encoded
from ipb.engine.columnar._run import VERDICT_WORDS, ColumnarCard, ColumnarResult, columnar, execute_columns

__all__ = ["BadColumn", "Encoded", "VERDICT_WORDS", "ColumnarCard", "ColumnarResult", "columnar", "execute_columns"]
