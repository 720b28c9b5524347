"""The user docs stay true to the code: every validation rule has its section, every
`kb` subcommand and option is in docs/cli.md, every MCP tool and argument is in
docs/mcp-tools.md, and every link between the docs lands on a real heading.
"""

from __future__ import annotations

import ast
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kb.rules import RULES
from tests.support.docs_helpers import DOCS, REPO, anchors, section, without_code
from tests.support.mcp_stdio import StdioClient
from tests.support.portfolio import EXAMPLES, kb_cli

# Where problems are made: Problem(path, line, severity, RULE, ...) and
# self.err(doc, key, RULE, ...).
RULE_ARG = {"Problem": 3, "err": 2}


def _emitted_rules() -> set[str]:
    found: set[str] = set()
    for path in sorted((REPO / "kb").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            pos = RULE_ARG.get(name or "")
            if pos is None or len(node.args) <= pos:
                continue
            arg = node.args[pos]
            if isinstance(arg, ast.Name) and arg.id == "rule":
                continue  # the helper that forwards its `rule` parameter
            assert isinstance(arg, ast.Constant), f"{path}:{node.lineno}: rule id is not a literal"
            found.add(arg.value)
    # `kb check` prints its own `[index-stale]` lines (the CLI package may move)
    for folder in ("pipeline", "cli"):
        for path in sorted((REPO / folder).rglob("*.py")) if (REPO / folder).is_dir() else []:
            found |= set(re.findall(r": error: [^\"]*\[([a-z]+(?:-[a-z]+)*)\]\"", path.read_text()))
    return found


def test_every_rule_the_validator_can_emit_has_a_section() -> None:
    emitted = _emitted_rules()
    assert {"vocabulary", "unknown-field", "frontmatter", "index-stale"} <= emitted
    assert emitted <= set(RULES), f"rules missing from kb/rules.py: {emitted - set(RULES)}"
    documented = anchors(DOCS / "kb-format.md")
    rules_section = section(DOCS / "kb-format.md", "## Validation rules")
    for rule in RULES:
        assert rule in documented, f"docs/kb-format.md has no section '### {rule}'"
        assert f"\n### {rule}\n" in rules_section, f"'### {rule}' is not under Validation rules"


def _links(path: Path) -> list[tuple[str, str]]:
    """(target file or '', anchor or '') of every Markdown link outside code blocks."""
    text = without_code(path.read_text("utf-8"))
    return re.findall(r"\]\(((?!https?:)[^)#\s]*)(?:#([^)\s]+))?\)", text)


@pytest.mark.parametrize(
    "doc", sorted(p.name for p in DOCS.glob("*.md") if p.name != "ENGINEERING.md")
)
def test_links_between_docs_land_on_headings(doc: str) -> None:
    path = DOCS / doc
    for target, anchor in _links(path):
        dest = (path.parent / target).resolve() if target else path
        assert dest.exists(), f"{doc}: link to missing {target}"
        if anchor and dest.suffix == ".md":
            assert anchor in anchors(dest), f"{doc}: no heading for {target}#{anchor}"


def test_pointers_in_messages_and_scaffold_land_on_headings() -> None:
    documented = anchors(DOCS / "kb-format.md")
    pointers = set()
    for path in (REPO / "kb").rglob("*.py"):
        pointers |= set(re.findall(r"docs/kb-format\.md#([\w-]+)", path.read_text("utf-8")))
    assert pointers, "kb/ no longer points at docs/kb-format.md"
    assert pointers <= documented, pointers - documented
    for readme in (REPO / "README.md", EXAMPLES / "README.md"):
        text = readme.read_text("utf-8")
        assert "docs/kb-format.md" in text and "/work/" not in text, readme


def _subcommands() -> list[str]:
    result = kb_cli("--help")
    assert result.returncode == 0, result.stderr
    listing = result.stdout.split("COMMAND\n", 2)[-1]
    return re.findall(r"^    ([a-z][a-z-]*)\s", listing, re.M)


@pytest.mark.slow
def test_cli_doc_covers_every_subcommand_and_option() -> None:
    commands = _subcommands()
    assert {"init", "validate", "refresh", "mcp", "register"} <= set(commands), commands
    doc = DOCS / "cli.md"
    with ThreadPoolExecutor(max_workers=4) as pool:
        helps = pool.map(lambda c: kb_cli(c, "--help").stdout, commands)
        usages = dict(zip(commands, helps, strict=True))
    for command in commands:
        assert f"kb-{command}" in anchors(doc), f"docs/cli.md has no '## kb {command}'"
        text = section(doc, f"## kb {command}")
        usage = usages[command]
        options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", usage)) - {"--help"}
        choices = {c for group in re.findall(r"\{([a-z,-]+)\}", usage) for c in group.split(",")}
        for word in sorted(options | choices):
            assert word in text, f"docs/cli.md '## kb {command}' does not mention {word}"


@pytest.fixture(scope="module")
def mcp_tools(tmp_path_factory: pytest.TempPathFactory) -> list:
    """The tools a real server lists (no build needed to list them)."""
    client = StdioClient(EXAMPLES / "kb", tmp_path_factory.mktemp("no-build"))
    try:
        yield client.tools()
    finally:
        client.close()


def test_mcp_doc_covers_every_tool_and_argument(mcp_tools: list) -> None:
    doc = DOCS / "mcp-tools.md"
    names = [tool.name for tool in mcp_tools]
    assert len(names) == 9, names
    which = section(doc, "## Which tool for which question")
    for tool in mcp_tools:
        assert tool.name in anchors(doc), f"docs/mcp-tools.md has no '## {tool.name}'"
        assert f"`{tool.name}`" in which, f"{tool.name} is missing from the question table"
        text = section(doc, f"## {tool.name}")
        for arg in tool.input_schema.get("properties", {}):
            assert f"| `{arg}` |" in text, f"{tool.name}: argument {arg} is not documented"
        assert f"{tool.name}(" in text, f"{tool.name}: no example call"
