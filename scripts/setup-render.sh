#!/usr/bin/env bash
# Install the invoice renderers `docextract render` drives (docs/render.md), so another machine makes the same data:
#   * the Python renderers: the `render` extra into .venv (run scripts/setup.sh first), and those that cannot share
#     it into $DOCEXTRACT_RENDER_PYTHON (default ~/.cache/docextract-render/python);
#   * TeX Live with the invoice packages (texlive-latex-extra), the PostScript fonts, babel languages, siunitx and
#     XeTeX (the invoicing package's template), LibreOffice Writer for Tryton's report and Open Sans for invoice-it's
#     page (Debian packages, about 1.5 GB, a few minutes);
#   * Node.js and the npm renderers into $DOCEXTRACT_RENDER_NODE (default ~/.cache/docextract-render/node),
#     outside the repository: nothing downloaded is committed.
# Idempotent. Versions are pinned here and in pyproject.toml: the layouts, and so the data, depend on them.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_DIR="${DOCEXTRACT_RENDER_NODE:-$HOME/.cache/docextract-render/node}"
PYTHON_DIR="${DOCEXTRACT_RENDER_PYTHON:-$HOME/.cache/docextract-render/python}"
# Tryton's invoice report: the module's template and translations (never imported: it needs a Tryton server), filled
# by relatorio (Genshi; puremagic for its images) as Tryton fills it, printed by LibreOffice (Debian, below)
# invoicing pins Flask 1.0.2 and Jinja2 2.10.3: only its XeLaTeX template is read
# gen-invoice imports setuptools' pkg_resources and prints through electron-pdf: only its HTML template is read
ISOLATED_PYTHON_PACKAGES=(PyInvoice==0.1.7 invoicepy==0.1.2 pyinvoicer==0.0.3 invoicing==2.1.1 gen-invoice==0.0.3
                          trytond_account_invoice==8.2.0 relatorio==1.0.0 Genshi==0.7.12 puremagic==1.30)
NPM_PACKAGES=(microinvoice@1.0.6 jspdf-invoice-template-nodejs@1.4.40 @h1dd3nsn1p3r/pdf-invoice@1.0.12
              html-invoicer@1.0.3)
DEBIAN_PACKAGES=(texlive-latex-extra texlive-fonts-recommended texlive-science texlive-lang-german
                 texlive-lang-french texlive-lang-italian texlive-lang-spanish texlive-lang-european
                 libreoffice-writer-nogui texlive-xetex texlive-plain-generic fonts-open-sans)
# Debian's Node.js only where none is installed: its npm package conflicts with a Node.js from elsewhere
# (NodeSource's, which bundles npm), and apt then refuses the whole install ("held broken packages")
command -v npm >/dev/null 2>&1 || DEBIAN_PACKAGES+=(nodejs npm)

[ -x .venv/bin/python ] || { echo "setup-render: run scripts/setup.sh first (it makes .venv)" >&2; exit 1; }
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[render]" 2>&1 | grep -v "^WARNING: Location" >&2 || true
# Python renderers that cannot share .venv, in their own folder without their dependencies: PyInvoice installs a
# top-level package "tests" (it would shadow the repository's), invoicepy pins Click < 8 and pydantic < 2,
# pyinvoicer Jinja2 < 3 and WeasyPrint < 53
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --upgrade --target "$PYTHON_DIR" \
    "${ISOLATED_PYTHON_PACKAGES[@]}" 2>&1 | grep -v "^WARNING: Location" >&2 || true

missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
        echo "setup-render: installing ${missing[*]}" >&2
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "setup-render: WARNING: install these Debian packages for the LaTeX and Node renderers: ${missing[*]}" >&2
    fi
fi

if command -v npm >/dev/null 2>&1; then
    mkdir -p "$NODE_DIR"
    # html-invoicer's template is read and printed by WeasyPrint: Puppeteer's browser (a download from outside the
    # registries) is not fetched
    PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1 npm install --prefix "$NODE_DIR" --no-audit --no-fund --silent "${NPM_PACKAGES[@]}"
    # @rimiti/invoice-it's HTML is printed by WeasyPrint too: html-pdf's optional PhantomJS (a download from outside
    # the registries) is left out, and no install script runs
    npm install --prefix "$NODE_DIR" --no-audit --no-fund --silent --omit=optional --ignore-scripts \
        @rimiti/invoice-it@3.6.0
else
    echo "setup-render: WARNING: npm is missing; the Node renderers stay unavailable" >&2
fi
.venv/bin/docextract render --list
