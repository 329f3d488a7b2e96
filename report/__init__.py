"""``ipb.report``: the results of ``ipb score`` as one self-contained HTML page.

:mod:`~ipb.report.data` reads a results folder (``responses.jsonl`` and ``summary.json``)
into the tables and figures of the paper; :mod:`~ipb.report.html` renders them with the
stylesheet and script in ``templates/``. The last folder of the data flow: it may import
``engine``, ``perturb``, ``respond`` and ``scoring``; nothing but the CLI imports it.
"""
