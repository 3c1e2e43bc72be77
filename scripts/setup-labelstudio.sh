#!/usr/bin/env bash
# Label Studio in a virtualenv of its own (.venv-ls), for the round-trip test (tests/data/test_labelstudio.py)
# and for labelling on this machine. Its own venv: label-studio pins Django, pydantic and numpy versions that
# docextract's environment must not be bent to. ~1 GB, about a minute and a half to install.
# Idempotent. Then: .venv-ls/bin/label-studio start  (http://localhost:8080)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv-ls/bin/python ]; then
    python3 -m venv .venv-ls
fi
.venv-ls/bin/python -m pip install -q --disable-pip-version-check "label-studio>=1.20" "label-studio-sdk>=2" 2>&1 \
    | grep -v "^WARNING: Location" >&2 || true
.venv-ls/bin/python -c "import label_studio, label_studio_sdk" || { echo "setup-labelstudio: installing Label Studio failed" >&2; exit 1; }
