"""Ray is an optional extra: without it the local engine runs and `--engine ray` names the extra (exit 3).

``import ray`` is made to fail in a subprocess (``sys.modules['ray'] = None``), so this runs whether or not Ray is
installed here.
"""

from __future__ import annotations

import os
import subprocess
import sys

from test_batch import make_tree, manifest
from test_batch_kill import REPO, TESTS

from docextract.errors import EXIT_MISSING_DEPENDENCY, EXIT_OK

WITHOUT_RAY = "import sys; sys.modules['ray'] = None; from docextract.cli import main; main()"  # import ray fails


def test_without_ray_the_local_engine_runs_and_the_ray_engine_names_the_extra(tmp_path):
    inputs = make_tree(tmp_path / "in", {"a.txt": "echo"})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(TESTS)])}

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", WITHOUT_RAY, *args], env=env, capture_output=True, text=True,
                              timeout=120)

    local = cli("run", str(inputs), "--out", str(tmp_path / "local"), "--model", "none")
    assert local.returncode == EXIT_OK, local.stderr  # a.txt is not a document: a skipped record, not a crash
    record = manifest(tmp_path / "local")["a.txt"]
    assert (record["status"], record["error"]["code"]) == ("skipped", "UNSUPPORTED_FORMAT")
    missing = cli("run", str(inputs), "--out", str(tmp_path / "ray"), "--model", "none", "--engine", "ray")
    assert missing.returncode == EXIT_MISSING_DEPENDENCY
    assert "pip install 'docextract[ray]'" in missing.stderr and "Traceback" not in missing.stderr
