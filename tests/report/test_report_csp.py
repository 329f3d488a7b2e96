"""The report's Content-Security-Policy lets only its own script run (issue 16)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path


def test_script_is_allowed_by_its_hash_only(report_path: Path) -> None:
    page = report_path.read_text(encoding="utf-8")
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    assert len(scripts) == 1 and "'unsafe-inline'" not in csp.split("script-src", 1)[1].split(";")[0]
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode("ascii")
    assert f"script-src 'sha256-{digest}'" in csp
