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


def test_the_top_floor_stays_small():
    """At most seven modules beside the packages (``__init__`` and ``__main__`` not counted): a concept that needs
    a module of its own finds its room in a package."""
    modules = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(modules) <= 7, modules


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
    """The checker itself: an inference-path module (the model stage, modeling) that reaches into training is
    reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from docextract.training.loop import train\n")
    assert imports(bad) == [(2, "docextract.training.loop")]
    assert "training" not in allowed_imports()["modeling"]
    assert "training" not in allowed_imports()["pipeline"]
    assert "training" not in allowed_imports()["evaluation"]
    assert unit_of("docextract.extraction.fields") == "extraction"


def module_graph() -> dict[str, set[str]]:
    """Every package module -> the package modules it imports (inside functions too; ``from docextract.x import y``
    counts as importing ``docextract.x.y`` when that is a module, else ``docextract.x``)."""
    modules = {module_name(p).removesuffix(".__init__"): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("docextract"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if sub in modules else node.module)
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name.startswith("docextract.")}
        # a package's __init__ is not an edge worth a circle: importing docextract.x.y runs docextract.x first
        graph[name] = {t for t in targets if t in modules and t != name and not name.startswith(t + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle():
    """No module imports one that imports it back, through any path, by an import at the top or inside a function."""
    assert not cycles(module_graph()), f"import circles: {cycles(module_graph())}"


def test_the_circle_finder_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_model_folders_keys_are_spelled_only_in_model_folder():
    """Every module reads and writes the ``docextract_*`` keys of a model's config.json through
    ``docextract.modeling.model_folder`` (by its constants), never by a string or attribute of its own."""
    from docextract.modeling.model_folder import MODEL_KEYS

    own = PACKAGE / "modeling" / "model_folder.py"
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == own:
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Constant) and node.value in MODEL_KEYS:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value!r}")
            elif isinstance(node, ast.Attribute) and node.attr in MODEL_KEYS:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: .{node.attr}")
    assert not found, "model folder keys spelled outside modeling/model_folder.py:\n" + "\n".join(found)
