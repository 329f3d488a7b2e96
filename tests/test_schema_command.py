"""``ipb schema`` (issue 17, item 4): the schemas editors need, with stable ids, validated by an
editor-grade validator (jsonschema with the schema's declared draft, and check-jsonschema when installed)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import jsonschema
import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import bundled_card_paths, bundled_scenario_paths

runner = CliRunner()
NAMES = ["card", "scenario", "item", "response", "score_record", "summary", "perturb_report"]


def _write(tmp_path: Path) -> tuple[Path, str]:
    out = tmp_path / "schemas"
    result = runner.invoke(app, ["schema", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out, result.output


def test_schema_writes_every_schema_with_a_stable_id_and_its_draft(tmp_path):
    out, _ = _write(tmp_path)
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{n}.schema.json" for n in NAMES)
    for name in NAMES:
        schema = json.loads((out / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert schema["$id"] == f"urn:ipb:schema:{name}"  # not a placeholder, not an install path
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.validators.validator_for(schema).check_schema(schema)


def _yaml(path: Path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def test_the_declared_draft_validates_every_bundled_card_and_scenario_and_rejects_a_broken_card(tmp_path):
    out, _ = _write(tmp_path)
    card_schema = json.loads((out / "card.schema.json").read_text(encoding="utf-8"))
    scen_schema = json.loads((out / "scenario.schema.json").read_text(encoding="utf-8"))
    card_v = jsonschema.validators.validator_for(card_schema)(card_schema)
    scen_v = jsonschema.validators.validator_for(scen_schema)(scen_schema)
    for path in bundled_card_paths():
        assert not list(card_v.iter_errors(_yaml(path))), path
    for path in bundled_scenario_paths()[:20]:
        assert not list(scen_v.iter_errors(_yaml(path))), path
    broken = _yaml(bundled_card_paths()[0])
    broken["gates"][0]["reject"] = True
    assert [e.message for e in card_v.iter_errors(broken)] == ["True is not of type 'string'"]


def _modeline_schema(text: str) -> Path:
    first = text.splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=file://")
    return Path(unquote(urlparse(first.split("$schema=", 1)[1]).path))


@pytest.mark.skipif(shutil.which("check-jsonschema") is None and
                    not (Path(sys.executable).parent / "check-jsonschema").exists(),
                    reason="check-jsonschema is not installed (pip install check-jsonschema)")
def test_check_jsonschema_validates_a_card_through_the_printed_modeline_from_another_folder(tmp_path):
    out, printed = _write(tmp_path)
    modeline = next(line for line in printed.splitlines() if line.startswith("# yaml-language-server") and "card" in line)
    folder = tmp_path / "somewhere" / "else"
    folder.mkdir(parents=True)
    card = folder / "my_card.yaml"
    body = "\n".join(bundled_card_paths()[0].read_text(encoding="utf-8").splitlines()[1:])
    card.write_text(modeline + "\n" + body + "\n", encoding="utf-8")
    schema_path = _modeline_schema(card.read_text(encoding="utf-8"))
    assert schema_path == (out / "card.schema.json").resolve()
    exe = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    ok = subprocess.run([exe, "--schemafile", str(schema_path), str(card)], cwd=tmp_path, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = folder / "bad.yaml"
    bad.write_text(card.read_text(encoding="utf-8").replace("id: ", "idd: ", 1), encoding="utf-8")
    fail = subprocess.run([exe, "--schemafile", str(schema_path), str(bad)], cwd=folder, capture_output=True, text=True)
    assert fail.returncode == 1 and "idd" in fail.stdout


def test_one_schema_prints_to_stdout_and_unknown_names_are_usage_errors():
    result = runner.invoke(app, ["schema", "item"], catch_exceptions=False)
    assert json.loads(result.output)["$id"] == "urn:ipb:schema:item"
    bad = runner.invoke(app, ["schema", "cards"])
    assert bad.exit_code == 2 and "schemas: card, scenario" in bad.output
