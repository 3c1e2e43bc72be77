"""The Label Studio half of the round trip test (tests/data/test_labelstudio.py), run by the Python that has
label-studio and label-studio-sdk installed (their own virtualenv: `scripts/setup-labelstudio.sh`), never by
docextract's: Label Studio pins its own Django, pydantic and numpy.

    python tests/labelstudio_roundtrip.py TASKS.json CONFIG.xml EXPORT.json DATA_DIR

Starts Label Studio on 127.0.0.1 (a free port, its data in DATA_DIR, a user with an API token), and through the
SDK: creates a project with CONFIG, imports TASKS (pages with docextract's predictions), checks that the
predictions arrived with their model version and score, then annotates each task as a reviewer would (the
predicted regions accepted, the first region's label corrected to 'total'), exports the project as JSON to
EXPORT.json, and stops the server. Prints one JSON line with what it saw.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

STARTUP_S = 300  # first start runs Django's migrations: a minute or more on a busy 2-core machine
TOKEN = "docextract-roundtrip-token-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(tasks_path: str, config_path: str, export_path: str, data_dir: str) -> None:
    from label_studio_sdk import LabelStudio

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "LABEL_STUDIO_BASE_DATA_DIR": data_dir, "DJANGO_DB": "sqlite",
           "LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK": "true", "SENTRY_DSN": "", "FRONTEND_SENTRY_DSN": "",
           "COLLECT_ANALYTICS": "false", "LATEST_VERSION_CHECK": "false"}
    binary = Path(sys.executable).with_name("label-studio")
    log = open(Path(data_dir) / "label-studio.log", "wb")
    server = subprocess.Popen([str(binary), "start", "--no-browser", "--host", url, "--internal-host", "127.0.0.1",
                               "--port", str(port), "--data-dir", data_dir, "--username", "reviewer@example.com",
                               "--password", "roundtrip-password", "--user-token", TOKEN, "--enable-legacy-api-token"],
                              stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if server.poll() is not None:
                raise SystemExit(f"label-studio exited with {server.returncode}: see {log.name}")
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"label-studio did not answer within {STARTUP_S} s: see {log.name}")
            time.sleep(1)
        client = LabelStudio(base_url=url, api_key=TOKEN)
        project = client.projects.create(title="docextract round trip", label_config=Path(config_path).read_text())
        tasks = json.loads(Path(tasks_path).read_text())
        client.projects.import_tasks(id=project.id, request=tasks)
        seen = {"tasks": 0, "predictions": 0, "regions": 0, "model_versions": set(), "scores": []}
        for task in client.tasks.list(project=project.id):
            seen["tasks"] += 1
            predictions = client.predictions.list(task=task.id)
            result = []
            for prediction in predictions:
                seen["predictions"] += 1
                seen["model_versions"].add(prediction.model_version)
                seen["scores"].append(prediction.score)
                result = [dict(r) for r in prediction.result]
            regions = sorted({r["id"] for r in result})
            seen["regions"] += len(regions)
            if regions:  # the reviewer corrects one label
                for r in result:
                    if r["id"] == regions[0] and r["type"] == "labels":
                        r["value"] = {**r["value"], "labels": ["total"]}
            client.annotations.create(id=task.id, result=result, ground_truth=True)
        export = b"".join(client.projects.exports.download_sync(id=project.id, export_type="JSON"))
        Path(export_path).write_bytes(export)
        seen["model_versions"] = sorted(seen["model_versions"])
        print(json.dumps(seen))
    finally:
        os.killpg(server.pid, 15)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait()
        log.close()


if __name__ == "__main__":
    main(*sys.argv[1:5])
