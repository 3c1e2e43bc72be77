#!/usr/bin/env bash
# Set up docextract on a fresh Debian/Ubuntu machine: Tesseract (when missing and possible),
# a virtualenv in .venv, and the package. `scripts/setup.sh --dev` adds the test tools.
# Idempotent: re-running it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

extras=""
[ "${1:-}" = "--dev" ] && extras="[dev]"

if ! command -v tesseract >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
        echo "setup: installing tesseract-ocr (Debian package) for the OCR path" >&2
        apt-get install -y -q tesseract-ocr >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null && apt-get install -y -q tesseract-ocr >/dev/null; }
    elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then
        echo "setup: installing tesseract-ocr with sudo" >&2
        sudo apt-get install -y -q tesseract-ocr >/dev/null || true
    fi
    command -v tesseract >/dev/null 2>&1 || echo "setup: WARNING: Tesseract is not installed and could not be installed here;" \
        "scanned pages and images need it (Debian/Ubuntu: apt-get install tesseract-ocr)." \
        "Digital PDFs work without it." >&2
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# torch is pinned in pyproject.toml (the CPU wheel); pip reuses what is already installed.
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}" 2>&1 \
    | grep -v "^WARNING: Location" >&2 || true
.venv/bin/python -c "import docextract" || { echo "setup: installing docextract failed" >&2; exit 1; }
