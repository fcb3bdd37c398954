"""Reading the catalogue file: YAML with the line of every key, and dates left to pydantic, so each
error of partitions/catalogue.py can name the file, the line, the entry and the field."""
from __future__ import annotations

from pathlib import Path

import yaml


class Where:
    """`file:line` of a place in the catalogue document, from the YAML node tree (the line of the
    deepest key of `path` the file has), so every error names the file, the line, the entry and the field."""

    def __init__(self, source: str, lines: dict[tuple, int] | None = None):
        self.source, self.lines = source, lines or {}

    def __call__(self, *path) -> str:
        path = tuple(path)
        while path and path not in self.lines:
            path = path[:-1]
        line = self.lines.get(path)
        return f"{self.source}:{line}" if line else self.source


def _node_lines(node: yaml.Node, path: tuple = ()) -> dict[tuple, int]:
    """Document path (keys and list indices) -> 1-based line, for every node of the document."""
    out = {path: node.start_mark.line + 1}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            out.update(_node_lines(value, path + (key.value,)))
            out[path + (key.value,)] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            out.update(_node_lines(value, path + (i,)))
    return out


class _CatalogueLoader(yaml.SafeLoader):
    """SafeLoader without the implicit timestamp type: dates stay strings until pydantic parses them,
    so an impossible one (2023-09-31) is reported with its entry, field and line instead of a bare
    `ValueError: day is out of range for month` from inside the YAML constructor."""


_CatalogueLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def read_catalogue_yaml(path: Path) -> tuple[object, dict[tuple, int] | None]:
    """The document and its path -> line map; a ValueError names `file:line:column` of a syntax error."""
    source = str(path)
    try:
        loader = _CatalogueLoader(path.read_text(encoding="utf-8"))
        try:
            node = loader.get_single_node()
            doc = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        # The parser notices a syntax error where it stops (problem_mark), which can be lines after
        # the construct it was reading (context_mark, e.g. where an unclosed bracket opened): both.
        mark, context = getattr(exc, "problem_mark", None), getattr(exc, "context_mark", None)
        mark = mark or context
        at = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        reason = getattr(exc, "problem", None) or str(exc)
        if getattr(exc, "context", None):
            reason += f" ({exc.context}" + (f" at line {context.line + 1})" if context else ")")
        raise ValueError(f"{at}: YAML syntax: {reason}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{source}: cannot be read: {exc}") from None
    return doc, _node_lines(node) if node is not None else None
