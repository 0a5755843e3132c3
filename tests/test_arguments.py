"""Arguments that cannot be swapped, read from the source of ``src/maieutic`` with ``ast``.

The rule, written once:

(a) A function or method takes at most 3 positional parameters (``self`` and ``cls``,
    ``*args`` and ``**kwargs`` not counted); the rest are keyword-only (after ``*``).
(b) No two adjacent positional parameters carry the same annotation
    (``concurrency: int, retries: int``): the second is keyword-only. Exempt: the
    positional-only parameters (before ``/``) of a hook, a method declared in a ``typing``
    ``Protocol`` or one a base class leaves to its subclasses (its body ``...``, ``pass``
    or ``raise NotImplementedError``). A hook is called at one place in the framework (a
    reviewed call), while its implementations name their parameters as they like (a task's
    evaluator, a plain function passed as the hook): keyword-only parameters would force
    every implementation to spell the same names, which is what ``/`` declares they need
    not; so an implementation of such a hook (a method of the hook's name) may keep the
    hook's ``/`` too. Also exempt: a
    pair named ``a, b`` or ``x, y``, the names saying the function is symmetric in them
    (an agreement, a correlation), so a swap changes nothing.
(c) A dataclass (``@dataclass``, or the project's ``@record``, keyword-only already) has at
    most 3 fields that can be given positionally: ``@dataclass(kw_only=True)`` or a
    ``_: KW_ONLY`` marker for the rest.
(d) No call passes more than 3 positional arguments to project code (a function, method
    or class defined in ``src/maieutic``; a call is taken for project code when its name is
    defined in the module or imported from ``maieutic``, or, for ``x.name(...)``, when
    ``name`` is defined in ``src/maieutic`` and ``x`` is not a module imported from
    outside it).

``PENDING`` lists the folders not converted yet (their own definitions change in a later
step); every other file of ``src/maieutic`` must hold the rule.
``python tests/test_arguments.py`` prints the current violations grouped by folder
(``--all`` lists each one).
"""

from __future__ import annotations

import ast
import itertools
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "maieutic"
MOST_POSITIONAL = 3
INTERCHANGEABLE = {("a", "b"), ("x", "y")}
"""Parameter names that declare a symmetric pair (an agreement, a correlation)."""
PENDING = ()
"""Folders of ``src/maieutic`` whose definitions are converted in a later step."""
RULES = {
    "a": "more than 3 positional parameters",
    "b": "two adjacent positional parameters of the same type",
    "c": "a dataclass with more than 3 positional fields",
    "d": "a call passing more than 3 positional arguments to project code",
}


@dataclass(frozen=True)
class Violation:
    """One place that breaks rule ``rule``."""

    rule: str
    path: Path
    line: int
    what: str

    @property
    def folder(self) -> str:
        """The folder of ``src/maieutic`` it lies in (``.`` for a top-level module)."""
        parts = self.path.relative_to(PACKAGE).parts
        return parts[0] if len(parts) > 1 else "."

    def __str__(self) -> str:
        where = self.path.relative_to(ROOT)
        return f"{where}:{self.line}: ({self.rule}) {self.what}"


def _files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in _files()}


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _is_protocol(cls: ast.ClassDef) -> bool:
    return any(_decorator_name(base) == "Protocol" for base in cls.bases)


def _is_hook(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A method left to subclasses: its body (after a docstring) ``...``, ``pass`` or
    ``raise NotImplementedError``."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:] or body
    if len(body) != 1:
        return False
    only = body[0]
    if isinstance(only, ast.Pass):
        return True
    if isinstance(only, ast.Expr) and isinstance(only.value, ast.Constant):
        return only.value.value is Ellipsis
    return isinstance(only, ast.Raise) and "NotImplementedError" in ast.unparse(only)


def _functions(
    tree: ast.Module,
) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, bool, bool]]:
    """Every function with whether it is a method and whether it is a hook (a method of a
    Protocol, or one left to subclasses)."""

    def walk(node: ast.AST, cls: ast.ClassDef | None) -> Iterator:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                hook = cls is not None and (_is_protocol(cls) or _is_hook(child))
                yield child, cls is not None, hook
                yield from walk(child, None)
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, child)
            else:
                yield from walk(child, cls)

    yield from walk(tree, None)


def positional(function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> list[ast.arg]:
    """The parameters that can be given positionally, ``self``/``cls`` left out."""
    params = [*function.args.posonlyargs, *function.args.args]
    static = any(_decorator_name(d) == "staticmethod" for d in function.decorator_list)
    if params and ((method and not static) or params[0].arg in ("self", "cls")):
        params = params[1:]
    return params


def _dataclass_positional(cls: ast.ClassDef) -> list[str] | None:
    """The fields of a dataclass that can be given positionally (None: not a dataclass)."""
    found = None
    for decorator in cls.decorator_list:
        name = _decorator_name(decorator)
        if name == "record":
            return []  # the project's record decorator makes every field keyword-only
        if name == "dataclass":
            found = decorator
    if found is None:
        return None
    if isinstance(found, ast.Call) and any(
        k.arg == "kw_only" and isinstance(k.value, ast.Constant) and k.value.value
        for k in found.keywords
    ):
        return []
    fields = []
    for statement in cls.body:
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        annotation = ast.unparse(statement.annotation)
        if annotation.endswith("KW_ONLY"):
            break
        if "ClassVar" in annotation:
            continue
        value = statement.value
        if (
            isinstance(value, ast.Call)
            and _decorator_name(value.func) == "field"
            and any(
                k.arg in ("init", "kw_only")
                and isinstance(k.value, ast.Constant)
                and k.value.value is (k.arg == "kw_only")
                for k in value.keywords
            )
        ):
            continue  # field(init=False) or field(kw_only=True)
        fields.append(statement.target.id)
    return fields


def _hooks(trees: dict[Path, ast.Module]) -> set[str]:
    """The names of the hooks that declare positional-only parameters."""
    return {
        function.name
        for tree in trees.values()
        for function, _, hook in _functions(tree)
        if hook and function.args.posonlyargs
    }


def definitions(trees: dict[Path, ast.Module]) -> list[Violation]:
    """Rules (a), (b) and (c) on every definition."""
    found = []
    hooks = _hooks(trees)
    for path, tree in trees.items():
        for function, method, hook in _functions(tree):
            hook = hook or (method and function.name in hooks)  # an implementation of one
            params = positional(function, method)
            if len(params) > MOST_POSITIONAL:
                names = ", ".join(p.arg for p in params)
                found.append(Violation("a", path, function.lineno, f"{function.name}({names})"))
            only = {id(p) for p in function.args.posonlyargs}
            for left, right in itertools.pairwise(params):
                if hook and id(right) in only:
                    continue
                if (left.arg, right.arg) in INTERCHANGEABLE:
                    continue
                if left.annotation is None or right.annotation is None:
                    continue
                same = ast.unparse(left.annotation)
                if same == ast.unparse(right.annotation):
                    what = f"{function.name}: {left.arg}, {right.arg} both {same}"
                    found.append(Violation("b", path, function.lineno, what))
                    break
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            fields = _dataclass_positional(cls)
            if fields is not None and len(fields) > MOST_POSITIONAL:
                what = f"{cls.name}: {len(fields)} positional fields"
                found.append(Violation("c", path, cls.lineno, what))
    return found


def _project_names(trees: dict[Path, ast.Module]) -> set[str]:
    names = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
    return names


def _imports(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Names bound to project objects, and names bound to modules from elsewhere."""
    project, foreign = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            ours = node.level > 0 or (node.module or "").split(".")[0] == "maieutic"
            for alias in node.names:
                (project if ours else foreign).add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                ours = alias.name.split(".")[0] == "maieutic"
                (project if ours else foreign).add(bound)
    return project, foreign


def calls(trees: dict[Path, ast.Module]) -> list[Violation]:
    """Rule (d) on every call in the package."""
    everywhere = _project_names(trees)
    found = []
    for path, tree in trees.items():
        imported, foreign = _imports(tree)
        local = {
            n.name
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            count = sum(not isinstance(a, ast.Starred) for a in node.args)
            if count <= MOST_POSITIONAL:
                continue
            func = node.func
            if isinstance(func, ast.Name):
                ours = func.id in local or func.id in imported
                name = func.id
            elif isinstance(func, ast.Attribute):
                base = func.value
                if isinstance(base, ast.Name) and base.id in imported:
                    ours = True  # a project module's function, or a project class's
                elif isinstance(base, ast.Name) and base.id in foreign:
                    ours = False
                else:
                    ours = func.attr in everywhere
                name = ast.unparse(func)
            else:
                continue
            if ours:
                what = f"{name}(…) with {count} positional arguments"
                found.append(Violation("d", path, node.lineno, what))
    return found


def violations() -> list[Violation]:
    """Every violation of rules (a)–(d) in ``src/maieutic``, pending folders included."""
    trees = _trees()
    return sorted([*definitions(trees), *calls(trees)], key=lambda v: (v.rule, str(v.path), v.line))


def _pending(v: Violation) -> bool:
    where = v.path.relative_to(PACKAGE).as_posix()
    return any(where.startswith(folder + "/") for folder in PENDING)


def _enforced(found: list[Violation], rule: str) -> list[str]:
    return [str(v) for v in found if v.rule == rule and not _pending(v)]


def test_the_source_tree_is_found():
    assert len(_files()) > 100


def test_a_no_more_than_three_positional_parameters():
    assert _enforced(violations(), "a") == []


def test_b_no_two_neighbours_of_the_same_type():
    assert _enforced(violations(), "b") == []


def test_c_no_dataclass_with_more_than_three_positional_fields():
    assert _enforced(violations(), "c") == []


def test_d_no_call_passes_more_than_three_positional_arguments():
    assert _enforced(violations(), "d") == []


def test_the_checks_see_a_violation_of_each_kind(tmp_path):
    source = (
        "from dataclasses import dataclass\n"
        "def f(a, b, c, d): ...\n"
        "def g(concurrency: int, retries: int): ...\n"
        "@dataclass\nclass R:\n    a: int\n    b: str\n    c: int\n    d: str\n"
        "f(1, 2, 3, 4)\n"
    )
    trees = {PACKAGE / "x.py": ast.parse(source)}
    found = [*definitions(trees), *calls(trees)]
    assert sorted(v.rule for v in found) == ["a", "b", "c", "d"]


def main(argv: list[str]) -> None:
    """Print the violations: counts per folder and rule, and each one with ``--all``."""
    found = violations()
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for v in found:
        table[v.folder][v.rule] += 1
    print(f"{'folder':<12}" + "".join(f"{r:>6}" for r in RULES) + "   pending")
    for folder in sorted(table):
        row = "".join(f"{table[folder][r]:>6}" for r in RULES)
        print(f"{folder:<12}{row}   {'yes' if folder in PENDING else ''}")
    total = Counter(v.rule for v in found)
    print(f"{'total':<12}" + "".join(f"{total[r]:>6}" for r in RULES))
    if "--all" in argv:
        for folder in sorted(table):
            print(f"\n{folder}/")
            for v in found:
                if v.folder == folder:
                    print(f"  {v}")


if __name__ == "__main__":
    main(sys.argv[1:])
