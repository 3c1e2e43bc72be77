#!/usr/bin/env bash
# Set up docextract on a fresh Debian/Ubuntu machine: Tesseract with the data of the languages docextract reads
# (when missing and possible), a virtualenv in .venv, and the package. `scripts/setup.sh --dev` adds the test tools.
# Idempotent: re-running it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

extras=""
[ "${1:-}" = "--dev" ] && extras="[dev]"

# Tesseract and its language data: English comes with tesseract-ocr; German, French, Dutch, Italian, Spanish, Swedish,
# Danish, Norwegian, Finnish, Portuguese, Polish and Czech (the other languages run.locale reads, `--lang deu` etc.) are
# Debian packages of their own (the last seven about 13 MB together).
ocr_packages="tesseract-ocr tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-nld tesseract-ocr-ita tesseract-ocr-spa
tesseract-ocr-swe tesseract-ocr-dan tesseract-ocr-nor tesseract-ocr-fin tesseract-ocr-por tesseract-ocr-pol
tesseract-ocr-ces"
ocr_languages="eng deu fra nld ita spa swe dan nor fin por pol ces"

missing_languages() {
    local have
    have=$(tesseract --list-langs 2>/dev/null || true)
    for lang in $ocr_languages; do
        grep -qx "$lang" <<<"$have" || echo "$lang"
    done
}

if ! command -v tesseract >/dev/null 2>&1 || [ -n "$(missing_languages)" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
        echo "setup: installing Tesseract and its language data (Debian packages: $ocr_packages)" >&2
        # shellcheck disable=SC2086
        apt-get install -y -q $ocr_packages >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null && apt-get install -y -q $ocr_packages >/dev/null; } \
            || echo "setup: WARNING: apt-get could not install $ocr_packages" >&2
    elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then
        echo "setup: installing Tesseract and its language data with sudo" >&2
        # shellcheck disable=SC2086
        sudo apt-get install -y -q $ocr_packages >/dev/null || true
    fi
    if ! command -v tesseract >/dev/null 2>&1; then
        echo "setup: WARNING: Tesseract is not installed and could not be installed here;" \
            "scanned pages and images need it (Debian/Ubuntu: apt-get install $ocr_packages)." \
            "Digital PDFs work without it." >&2
    elif [ -n "$(missing_languages)" ]; then
        echo "setup: WARNING: Tesseract has no data for: $(missing_languages | tr '\n' ' ')(--lang with them exits 3;" \
            "Debian/Ubuntu: apt-get install $ocr_packages)." >&2
    fi
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# torch is pinned in pyproject.toml (the CPU wheel); pip reuses what is already installed.
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}" 2>&1 \
    | grep -v "^WARNING: Location" >&2 || true
.venv/bin/python -c "import docextract" || { echo "setup: installing docextract failed" >&2; exit 1; }
