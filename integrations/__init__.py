"""``ipb.integrations``: ipb inside the evaluation tools evaluators already use.

- :mod:`~ipb.integrations.inspect_task`: an inspect_ai task (``ipb/investphilbench``)
  and scorer, registered through the ``inspect_ai`` entry point, so ``inspect eval``
  runs the benchmark with inspect's model providers and log viewer;
- :mod:`~ipb.integrations.lm_eval`: an lm-evaluation-harness task folder written
  for an items file (``ipb lm-eval-task``), scored by ipb's parser and metrics;
- :mod:`~ipb.integrations.answers`: one answer scored the way ``ipb score`` scores it,
  shared by both.

On top of the house beside the CLI: it may import ``engine``, ``perturb``, ``respond``
and ``scoring``; nothing of ours imports it. inspect_ai and lm-eval are optional
extras (``ipb[inspect]``, ``ipb[lmeval]``); only these modules import them.
"""
