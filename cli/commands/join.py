"""``ipb join``: several items files into one release, without the items ``ipb verify`` would call duplicates.

    ipb join A.jsonl B.jsonl ... --out release.jsonl [--no-cards]

The files are read in the order given; a line whose item id, or whose scenario (the 16 hex digits ending the id),
an earlier kept line has is dropped, the first kept (docs/perturbation.md, "Publishing"). Exit status: 0 on
success, 1 on an unreadable file, a line that is not an item, one id with two scenarios, an item that fails
``ipb verify``'s check against a card copy that changed since it was made (a copy that changed without that is
the warning ``ipb verify`` gives), an input holding no item (even among several) or one file given twice (nothing is written then), 128 + n when stopped by signal n (one line says so).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import typer

from ipb.cli._app import _fail, _write_failed, app, err
from ipb.errors import IpbError, WriteError
from ipb.perturb._progress import duration


@app.command()
def join(
    items: list[Path] = typer.Argument(..., help="Items files (JSON Lines written by ipb perturb), in the order to keep them; - is standard input (once)."),
    out: Path = typer.Option(..., "--out", "-o", help="The joined items file, written atomically (no file on an error)."),
    no_cards: bool = typer.Option(False, "--no-cards", help="Do not copy the kept items' card copies (ipb-cards/ beside each input) to ipb-cards/ beside OUT."),
) -> None:
    """Join items files into one, dropping items that repeat an earlier item's id or scenario (the first is kept).

    Several runs of one card from several bases can make one scenario under two
    ids; ``ipb verify`` reports the second as a duplicate. The joined file keeps
    every other line byte for byte (a CRLF line keeps its CR), in the order given, and says per file how
    many lines were dropped and which earlier file held each one's first. The
    card copies the kept items name are copied beside OUT, so that ``ipb verify
    OUT`` finds them where the cards are not installed.
    """
    # s61 new user N13: taken after the imports below, the stop line said "after 0 s" for a signal 1.5 s into the
    # command (importing join's modules is most of a short join); the docs count from the command's start
    started = time.time()
    from ipb.cli._stops import outputs_complete, remove_stale, said_on_stop

    def stopped(how: str) -> None:  # s59break B8: the same line as perturb's stop
        state = "kept as it was" if os.path.exists(out) else "not made"
        err.print(f"join stopped by {how} after {duration(time.time() - started)}: no items file written ({out} "
                  f"{state}); its temporary files are removed", markup=False)

    try:
        with said_on_stop(stopped):
            from ipb._files import check_writable, new_folders, output_lock, refuse_overwriting
            from ipb.perturb.join import join_items, refuse_stdin_as_output

            if not str(out).strip() or str(out) == ".":
                raise WriteError("--out is empty: name the joined items file, e.g. --out release.jsonl",
                                 file="--out", rule="file")
            refuse_overwriting({"--out": out}, [(f"items file {i + 1}", p) for i, p in enumerate(items)],
                               command="join")
            refuse_stdin_as_output(items, out)  # ``join B - --out C < C`` (s61 new user N11)
            check_writable({"--out": out})
            # the folder first, so that the lock file can be made in it: a join to a new folder took no lock, and a
            # second join to the same --out ran beside it (s60fix); removed again, while empty, if nothing is written
            with new_folders([out.parent if str(out.parent) else Path(".")]), output_lock(out):
                remove_stale((out,), started, lambda text: err.print(text, markup=False))  # s59break B7
                result = join_items(items, out, copy_cards=not no_cards)
                outputs_complete(f"{out} written")
    except IpbError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        raise _write_failed(exc, out, "--out") from None
    for part in result.files:
        line = f"{part.path}: kept {part.kept:,}"
        if part.dropped:
            why = []
            if part.dropped_ids:
                why.append(f"{part.dropped_ids:,} repeating an earlier item's id")
            if part.dropped_scenarios:
                why.append(f"{part.dropped_scenarios:,} repeating an earlier item's scenario")
            firsts = ", ".join(f"{n:,} first in {name}" for name, n in part.from_files.items())
            line += f", dropped {part.dropped:,} ({'; '.join(why)}: {firsts})"
        err.print(line, markup=False)
    for text in result.card_warnings:  # the warning ipb verify gives for the same copy (s60 new user N6)
        err.print(text, markup=False)
    for name, missing in result.missing_cards.items():
        err.print(f"warning: {name}: {len(missing)} card copy(ies) its kept items name are not beside it "
                  f"({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}): ipb verify {out} will need "
                  f"those cards installed (--cards DIR or --card ID=PATH) or the copies put in {out.parent / 'ipb-cards'}",
                  markup=False)
    cards = f"; {len(result.cards_copied)} card file(s) copied to {out.parent / 'ipb-cards'}" if result.cards_copied else ""
    err.print(f"wrote {out}: {result.kept:,} item(s) of {result.kept + result.dropped:,} from {len(result.files)} file(s), "
              f"{result.dropped:,} dropped as repeats{cards}; near duplicates across files are not looked for",
              markup=False)
