"""Every relative link in the README, docs/ and the task pages points to a file that
exists, and every #anchor to a heading of that file; the README keeps its two set-up
commands (CI and the fresh-clone checks run them as written)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
# [text](target) and ![alt](target); the text may wrap across lines
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)
EXTERNAL = ("http://", "https://", "mailto:")


def doc_pages() -> list[Path]:
    """The Markdown pages whose links are checked."""
    pages = [REPO / "README.md"]
    pages += sorted((REPO / "docs").rglob("*.md"))
    pages += sorted((REPO / "src" / "maieutic" / "tasks").rglob("*.md"))
    return pages


def _prose(text: str) -> str:
    """The text without fenced blocks and inline code, where brackets are not links."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, markup and punctuation dropped,
    lower case, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor GitHub gives the headings of ``page`` (repeats get -1, -2, …)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path, root: Path = REPO) -> list[str]:
    """The relative links of ``page`` whose file or anchor does not exist, named from
    ``root``."""
    problems = []
    for target in LINK.findall(_prose(page.read_text(encoding="utf-8"))):
        if target.startswith(EXTERNAL):
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        where = f"{page.relative_to(root)}: {target}"
        if not dest.exists():
            problems.append(f"{where} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where} (no heading with that anchor)")
    return problems


def test_slug_follows_github():
    assert slug("Choosing an evaluator: meta-evaluation") == "choosing-an-evaluator-meta-evaluation"
    assert slug("What is accepted, flagged or refused") == "what-is-accepted-flagged-or-refused"
    assert slug("Installing the embedded LLM: `maieutic setup-llm`") == (
        "installing-the-embedded-llm-maieutic-setup-llm"
    )


def test_every_relative_link_resolves():
    pages = doc_pages()
    assert REPO / "src" / "maieutic" / "tasks" / "cqs" / "README.md" in pages
    problems = [problem for page in pages for problem in broken_links(page)]
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "a.md").write_text(
        "# Top\n\n[ok](#top) [gone](b.md) [bad](a.md#nowhere) `[code](d.md)`\n"
        "```\n[in code](c.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(tmp_path / "a.md", root=tmp_path) == [
        "a.md: b.md (no such file)",
        "a.md: a.md#nowhere (no heading with that anchor)",
    ]


def test_readme_keeps_the_two_setup_commands():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert (
        "```bash\npython3 -m venv .venv && . .venv/bin/activate && pip install -c constraints.txt "
        "torch==2.13.0 && pip install -c constraints.txt -e . && maieutic demo\n```"
    ) in readme
    assert "```bash\nbash scripts/test.sh\n```" in readme
