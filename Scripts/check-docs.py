#!/usr/bin/env python3
"""Checks one module's DocC catalog against its symbol graphs (run by generate-docs.sh).

1. Curation: every public symbol of the module (types, members, cases; not the ones the compiler
   synthesizes, such as `!=` or `hashValue`) must be linked (``Symbol``) from a `## Topics`
   section of a page of the catalog (the landing page or Extensions/<Type>.md), so nothing lands
   in docc's automatic groups.
2. Compiling examples: every ```swift block of the catalog must appear, line for line (leading
   whitespace and blank lines ignored), in a file under Snippets/ (which `swift build` compiles)
   or Tests/DocumentationExamplesTests/ (which `swift test` runs).
   A block preceded by a line `<!-- not compiled: <reason> -->` (for example Apple-only code
   shown for comparison) is exempt, and listed.

Usage: check-docs.py MODULE CATALOG_DIR SYMBOL_GRAPH_DIR
"""
import json
import pathlib
import re
import sys

def load_symbols(module, graph_dir):
    graph = json.loads((graph_dir / f"{module}.symbols.json").read_text())
    symbols = []
    for s in graph["symbols"]:
        if s.get("accessLevel") not in ("public", "open"):
            continue
        if "::SYNTHESIZED::" in s["identifier"]["precise"]:
            continue
        symbols.append((tuple(s["pathComponents"]), s["kind"]["identifier"]))
    return symbols


def normalize_link(link, module):
    link = link.strip()
    if link.startswith(module + "/"):
        link = link[len(module) + 1:]
    parts = []
    for part in link.split("/"):
        # Drop docc disambiguation suffixes: -swift.struct, -2k3j8, -(Int).
        part = re.sub(r"(-(swift\.[a-z.]+|[0-9a-z]{3,6}|\(.*\)|\[.*\])|->.*)$", "", part)
        parts.append(part)
    return tuple(parts)


def topic_links(page_text, module):
    """Links in the page's `## Topics` section (to the next level-2 heading or the end)."""
    links = set()
    in_topics = False
    for line in page_text.splitlines():
        if line.startswith("## "):
            in_topics = line.strip() == "## Topics"
            continue
        if in_topics:
            for m in re.finditer(r"``([^`]+)``", line):
                links.add(normalize_link(m.group(1), module))
    return links


def swift_blocks(text):
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            exempt = None
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            if j >= 0:
                m = re.match(r"\s*<!--\s*not compiled:\s*(.*?)\s*-->", lines[j])
                if m:
                    exempt = m.group(1)
            start = i + 1
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                i += 1
            yield start + 1, lines[start:i], exempt
        i += 1


def normalized(lines):
    return [l.strip() for l in lines if l.strip()]


def contains(haystack, needle):
    n = len(needle)
    return any(haystack[k:k + n] == needle for k in range(len(haystack) - n + 1))


def main():
    module, catalog, graph_dir = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    problems = []
    symbols = load_symbols(module, graph_dir)
    pages = sorted(catalog.rglob("*.md"))

    curated = set()
    for page in pages:
        text = page.read_text()
        links = topic_links(text, module)
        curated |= links
        # In Extensions/<Type>.md, links are relative to the type the page extends.
        m = re.match(r"#\s*``([^`]+)``", text)
        if m and page.parent.name == "Extensions":
            owner = normalize_link(m.group(1), module)
            curated |= {owner + link for link in links}

    for path, kind in sorted(set(symbols)):
        if path not in curated:
            problems.append(f"{module}: {'/'.join(path)} ({kind}) is in no `## Topics` section")

    snippet_files = sorted(pathlib.Path("Snippets").rglob("*.swift")) + sorted(
        pathlib.Path("Tests/DocumentationExamplesTests").rglob("*.swift"))
    snippets = {f: normalized(f.read_text().splitlines()) for f in snippet_files}
    for page in pages:
        for line_no, block, exempt in swift_blocks(page.read_text()):
            if exempt is not None:
                print(f"check-docs: {page}:{line_no}: not compiled ({exempt})")
                continue
            needle = normalized(block)
            if needle and not any(contains(h, needle) for h in snippets.values()):
                problems.append(f"{page}:{line_no}: swift block is in no file under Snippets/ or Tests/DocumentationExamplesTests/")

    for p in problems:
        print("check-docs: error: " + p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-docs: {module}: {len(symbols)} public symbols, curation and examples ok")


if __name__ == "__main__":
    main()
