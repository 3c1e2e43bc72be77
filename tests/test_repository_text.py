"""What the repository's text refers to is in the repository: no machine's absolute path, no design document that
lives elsewhere, and every ``docs/NAME.md`` a file or comment names exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TEXT_SUFFIXES = {".py", ".md", ".json", ".toml", ".sh", ".cfg", ".txt", ".yaml", ".yml"}
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|root|home)/")
FOREIGN_DOCS = re.compile(r"\b(?:DESIGN\.md|model-spec|reliability\.md)")
DOCS_REFERENCE = re.compile(r"\bdocs/([\w.-]+\.md)\b")
THIS_FILE = Path(__file__).resolve()


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True)
    if listed.returncode != 0:  # not a git checkout (an sdist): every file under the repository instead
        paths = [p for p in REPO.rglob("*") if ".venv" not in p.parts and ".git" not in p.parts]
    else:
        paths = [REPO / name for name in listed.stdout.split("\0") if name]
    return [p for p in paths if p.suffix in TEXT_SUFFIXES and p.is_file() and p.resolve() != THIS_FILE]


def test_no_machine_path_anywhere():
    found = [f"{p.relative_to(REPO)}:{n}" for p in tracked_text_files()
             for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1) if MACHINE_PATH.search(line)]
    assert not found, "absolute paths of one machine (write them relative to the repository):\n" + "\n".join(found)


def test_design_references_point_into_the_repository():
    foreign, missing = [], []
    for p in tracked_text_files():
        for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1):
            if FOREIGN_DOCS.search(line):
                foreign.append(f"{p.relative_to(REPO)}:{n}")
            missing += [f"{p.relative_to(REPO)}:{n}: docs/{name}" for name in DOCS_REFERENCE.findall(line)
                        if not (REPO / "docs" / name).is_file()]
    assert not foreign, "design documents the repository does not hold (see docs/models.md):\n" + "\n".join(foreign)
    assert not missing, "references to docs the repository does not hold:\n" + "\n".join(missing)
