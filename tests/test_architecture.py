"""The rule of the imports (docs/architecture.md): every import in the package, the ones inside functions
included, is allowed by the table in that document."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "docextract"
ARCHITECTURE = REPO / "docs" / "architecture.md"


def allowed_imports() -> dict[str, set[str]]:
    """The ``| package | may import |`` table of docs/architecture.md."""
    text = ARCHITECTURE.read_text()
    table = text[text.index("| package | may import |"):]
    rules: dict[str, set[str]] = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        unit, targets = (cell.strip() for cell in line.strip("|").split("|"))
        rules[unit] = {t.strip() for t in targets.split(",") if t.strip()}
    return rules


def unit_of(module: str) -> str:
    """``docextract.extraction.fields`` -> ``extraction``; ``docextract.pipeline`` -> ``pipeline``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "docextract"


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported docextract module) for every import statement in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "docextract":
                found += [(node.lineno, f"docextract.{alias.name}") for alias in node.names]
            elif node.module.startswith("docextract."):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("docextract.")]
        elif isinstance(node, ast.ImportFrom) and node.level:
            found.append((node.lineno, "relative import"))
    return found


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts)


def test_the_table_names_every_package_and_top_level_module():
    rules = allowed_imports()
    units = {p.stem for p in PACKAGE.glob("*.py")}  # __init__ included: the public API re-exports
    units |= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    units -= {"schemas"}
    assert units == set(rules), f"docs/architecture.md's table and the package differ: {units ^ set(rules)}"


def test_every_import_follows_the_rule():
    rules = allowed_imports()
    broken = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source_unit = unit_of(module_name(path))
        for line, module in imports(path):
            assert module != "relative import", f"{path}:{line}: use absolute imports"
            target = unit_of(module)
            if target in (source_unit, "docextract", "__version__"):
                continue
            if target not in rules[source_unit]:
                broken.append(f"{path.relative_to(REPO)}:{line}: {source_unit} imports {module}")
    assert not broken, "imports against docs/architecture.md:\n" + "\n".join(broken)


def test_the_rule_catches_an_import_against_the_grain(tmp_path):
    """The checker itself: an inference-path module that reaches into training is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from docextract.training.loop import train\n")
    assert imports(bad) == [(2, "docextract.training.loop")]
    assert "training" not in allowed_imports()["inference"]
    assert "training" not in allowed_imports()["pipeline"]
    assert unit_of("docextract.extraction.fields") == "extraction"
