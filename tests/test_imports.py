"""The import graph of the package, read from the sources (AST only, nothing imported): no import
circle between its modules, no private name imported from another module, and the layers one way
(the engine imports nothing from the strategies, the tournament, the analysis or the CLI).

An import counts when it runs: at the top of a module or inside a function, but not under
``if TYPE_CHECKING:``. A circle through a function-level import still ties the modules together
(each needs the other to work), so it counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "strategies", "tournament", "analysis", "cli")
UPPER = ("raspis.strategies", "raspis.tournament", "raspis.analysis", "raspis.cli")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(["raspis", *parts])] = path
    return found


MODULES = _modules()


def _target(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module an ``ImportFrom`` reads from, relative imports resolved."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base.pop()
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.If):
            test = parent.test
            if getattr(test, "id", None) == "TYPE_CHECKING" or getattr(
                    test, "attr", None) == "TYPE_CHECKING":
                return True
        parent = parents.get(parent)
    return False


def _read() -> tuple[dict[str, set[str]], list[str]]:
    """(each module's runtime imports of the package's modules, the private names imported from
    another module as ``module:line: name from other``)."""
    edges: dict[str, set[str]] = {module: set() for module in MODULES}
    private = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _target(module, path, node)
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    if full in MODULES:
                        aliases[alias.asname or alias.name] = full
                    if (alias.name.startswith("_") and not alias.name.startswith("__")
                            and target.startswith("raspis") and target != module):
                        private.append(f"{module}:{node.lineno}: {alias.name} from {target}")
                    if not _type_checking(node, parents):
                        imported = full if full in MODULES else target
                        if imported in MODULES and imported != module:
                            edges[module].add(imported)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in MODULES:
                        if alias.asname:
                            aliases[alias.asname] = alias.name
                        if not _type_checking(node, parents) and alias.name != module:
                            edges[module].add(alias.name)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and aliases[node.value.id] != module
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                private.append(f"{module}:{node.lineno}: {node.attr} of {aliases[node.value.id]}")
    return edges, private


EDGES, PRIVATE = _read()


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(edges[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return circles


def test_the_sources_are_read() -> None:
    assert "raspis.engine.game" in MODULES and "raspis.strategies.players.heuristic" in MODULES
    assert "raspis.engine.observation" in EDGES["raspis.engine.game"]


def test_no_import_circle() -> None:
    assert _circles(EDGES) == []


def test_a_circle_would_be_found() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_from_another_module() -> None:
    assert PRIVATE == []


def test_the_engine_imports_no_upper_layer() -> None:
    upward = [f"{module} -> {other}" for module, others in EDGES.items()
              if module.startswith("raspis.engine") for other in others
              if other.startswith(UPPER)]
    assert upward == []
