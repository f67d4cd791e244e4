"""The docs stay honest: every relative link in the README, the changelog and `docs/` points at
a file that exists (and at a heading that exists, when it names one), and every repository path
they quote in backticks exists (a quoted `file.py::test_name` names a test in that file). A
moved module, a renamed test or section fails here, not in a reader's browser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DOCS = sorted(
    [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "local" / "README.md", *(ROOT / "docs").rglob("*.md")]
)

# [text](target) and ![alt](target); the target ends at whitespace or the closing parenthesis
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.M)
EXPLICIT_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
# the repository's top-level folders: a backticked path starting with one is a path to check
TOP = (
    "shared/",
    "functions/",
    "infra/",
    "local/",
    "tests/",
    "bench/",
    "web/",
    "docs/",
    "tools/",
    ".github/",
    ".ci/",
)
# what a build makes and a fresh checkout does not have
BUILT = ("web/dist", "web/src/api/schema.d.ts")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(h) for h in HEADING.findall(text)} | set(EXPLICIT_ANCHOR.findall(text))


def _prose(path: Path) -> str:
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def _links(path: Path) -> list[str]:
    return [t for t in LINK.findall(_prose(path)) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def _code_paths(path: Path) -> list[str]:
    found = []
    for span in CODE.findall(_prose(path)):
        for word in span.split():
            word = word.strip("(),;:'\"")
            if not word.startswith(TOP) or word.startswith(BUILT) or any(c in word for c in "<>*{}$|"):
                continue
            found.append(word.rstrip("."))
    return found


def _missing(quoted: str) -> bool:
    """A path that does not exist, or a `file.py::test_name` whose test is not in the file."""
    path, _, test = quoted.partition("::")
    where = ROOT / path
    if not where.exists():
        return True
    return bool(test) and f"def {test}(" not in where.read_text(encoding="utf-8")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_there_are_docs_to_check() -> None:
    assert (ROOT / "docs" / "architecture.md") in DOCS
    assert len(DOCS) > 10


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_relative_link_resolves(doc: Path) -> None:
    broken = []
    for target in _links(doc):
        file_part, _, anchor = target.partition("#")
        where = (doc.parent / file_part).resolve() if file_part else doc
        if not where.exists():
            broken.append(target)
        elif anchor and where.suffix == ".md" and anchor not in _anchors(where):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{_name(doc)} links to what does not exist: {broken}"


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_repository_path_quoted_exists(doc: Path) -> None:
    missing = [p for p in _code_paths(doc) if _missing(p)]
    assert not missing, f"{_name(doc)} names paths that do not exist: {missing}"


def test_the_checker_sees_a_broken_link_and_a_missing_path(tmp_path: Path) -> None:
    """The checks above can fail: a link to nowhere and a path to nothing are both found."""
    doc = tmp_path / "x.md"
    doc.write_text("See [gone](nowhere.md) and `shared/tavla/nothing.py`.\n```\n[fenced](skip.md)\n```\n")
    assert _links(doc) == ["nowhere.md"]
    assert _code_paths(doc) == ["shared/tavla/nothing.py"]
    assert _missing("shared/tavla/nothing.py")
    assert _missing("tests/unit/test_doc_links.py::test_that_was_never_written")
    assert not _missing(
        "tests/unit/test_doc_links.py::test_the_checker_sees_a_broken_link_and_a_missing_path"
    )
    assert _slug("Events: where the day flows") == "events-where-the-day-flows"
    assert _slug("The `main` table, (once)") == "the-main-table-once"
    doc.write_text('# Top\n## Events: where the day flows\n<a id="kept"></a>\n```\n# not a heading\n```\n')
    assert _anchors(doc) == {"top", "events-where-the-day-flows", "kept"}
