"""The one reader of every file Referee takes from a person: scenarios, setups, records, sheets.

Hostile input is refused in well under a second, with one line naming the file and what is
wrong, before anything is built from it:

- size: at most :data:`MAX_BYTES`; text must be UTF-8;
- YAML aliases: the document is measured as if every alias were expanded (a "billion laughs"
  of a few kilobytes is refused, not expanded), and a recursive alias is refused;
- depth: at most :data:`MAX_DEPTH` nested collections;
- numbers: an integer of more than :data:`MAX_DIGITS` digits is refused.

YAML is read with libyaml where it is installed, and only plain decimals are integers, so
``21:00`` (YAML 1.1's base-60 1260) and ``07`` (a character's number; YAML 1.1's octal) stay text.
A ``.json`` file is read as JSON.

>>> parse_text("a: [1, 2]\\nstart: 21:00\\nnumber: 07", "setup.yaml")
{'a': [1, 2], 'start': '21:00', 'number': '07'}
>>> parse_text("a: &x [1, 2]\\nb: [*x, *x]", "setup.yaml")
{'a': [1, 2], 'b': [[1, 2], [1, 2]]}
>>> parse_text("n: " + "9" * 40, "setup.yaml")
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: setup.yaml: line 1, column 4: an integer of 40 digits \
(at most 30)
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from referee.core.errors import ScenarioError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_NODES",
    "load_file",
    "parse_text",
    "yaml_loader",
]

MAX_BYTES = 16 * 1024 * 1024
"""The largest file read (16 MiB: a long evening's record is a few)."""

MAX_NODES = 1_000_000
"""The most values a document may hold once its aliases are expanded."""

MAX_DEPTH = 100
"""The deepest nesting of lists and mappings."""

MAX_DIGITS = 30
"""The longest integer, in digits."""

_INT_TAG = "tag:yaml.org,2002:int"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"  # a date stays text: every value is JSON
_DECIMAL = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")


@cache
def yaml_loader() -> Any:
    """The YAML loader class for Referee's files (a safe loader, libyaml's where installed)."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag not in (_INT_TAG, _TIMESTAMP_TAG)]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Loader.add_implicit_resolver(_INT_TAG, _DECIMAL, list("-+0123456789"))
    return Loader


def _where(node: Any) -> str:
    mark = getattr(node, "start_mark", None)
    return f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""


def _measure(root: Any, source: str, max_nodes: int = MAX_NODES) -> None:
    """Refuse a node graph too large once expanded, too deep, recursive, or with a huge int."""
    import yaml

    sizes: dict[int, int] = {}
    depths: dict[int, int] = {}
    visiting: set[int] = set()
    # iterative post-order walk: node, state
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            visiting.discard(key)
            children = _children(node)
            sizes[key] = 1 + sum(sizes[id(c)] for c in children)
            depths[key] = 1 + max((depths[id(c)] for c in children), default=0)
            if sizes[key] > max_nodes:
                raise ScenarioError(
                    f"{source}: {_where(node)}more than {max_nodes:,} values once its aliases "
                    "are expanded"
                )
            if depths[key] > MAX_DEPTH:
                raise ScenarioError(
                    f"{source}: {_where(node)}nested more than {MAX_DEPTH} levels deep"
                )
            continue
        if key in sizes:
            continue
        if key in visiting:
            raise ScenarioError(f"{source}: {_where(node)}an alias refers to itself")
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT_TAG:
                digits = len(node.value.lstrip("+-"))
                if digits > MAX_DIGITS:
                    raise ScenarioError(
                        f"{source}: {_where(node)}an integer of {digits} digits "
                        f"(at most {MAX_DIGITS})"
                    )
            sizes[key] = 1
            depths[key] = 0
            continue
        visiting.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in sizes)


def _children(node: Any) -> list[Any]:
    import yaml

    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _json_depth(value: Any) -> int:
    """How many lists and mappings are nested in ``value`` (an empty one counts too), or one
    more than :data:`MAX_DEPTH` once past it."""
    depth = 0
    level = [value]
    while level:
        collections = [item for item in level if isinstance(item, dict | list)]
        if not collections:
            break
        depth += 1
        if depth > MAX_DEPTH:
            return depth
        nxt: list[Any] = []
        for item in collections:
            nxt.extend(item.values() if isinstance(item, dict) else item)
        level = nxt
    return depth


def _parse_json(text: str, source: str) -> Any:
    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise ScenarioError(
                f"{source}: an integer of {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})"
            )
        return int(digits)

    def no_constant(name: str) -> Any:
        raise ScenarioError(f"{source}: {name} is not a JSON number")

    try:
        data = json.loads(text, parse_int=parse_int, parse_constant=no_constant)
    except RecursionError:
        raise ScenarioError(f"{source}: nested more than {MAX_DEPTH} levels deep") from None
    except json.JSONDecodeError as error:
        raise ScenarioError(
            f"{source}: line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    if _json_depth(data) > MAX_DEPTH:
        raise ScenarioError(f"{source}: nested more than {MAX_DEPTH} levels deep")
    return data


def _check_depth(text: str, source: str) -> None:
    """Refuse deep nesting from the event stream, before anything is composed (libyaml would
    take seconds over a deep document, but stops here after a hundred events)."""
    import yaml

    loader = yaml_loader()(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise ScenarioError(
                        f"{source}: {_where(event)}nested more than {MAX_DEPTH} levels deep"
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(error, "problem", None) or "not valid YAML"
        raise ScenarioError(f"{source}: {where}{problem}") from None
    finally:
        loader.dispose()


def parse_text(text: str, source: str = "<text>", max_nodes: int = MAX_NODES) -> Any:
    """The data in ``text`` (YAML, or JSON if ``source`` ends in ``.json``), within the limits.

    ``max_nodes`` lowers :data:`MAX_NODES` where the data is sent back as it is (a request
    body: what a few hundred bytes of aliases may expand to). :class:`ScenarioError` naming
    ``source`` (and the line) for anything refused.
    """
    if len(text) > MAX_BYTES:
        raise ScenarioError(f"{source}: larger than {MAX_BYTES // (1024 * 1024)} MiB")
    if source.endswith(".json"):
        return _parse_json(text, source)
    import yaml

    _check_depth(text, source)
    loader = yaml_loader()(text)
    try:
        try:
            node = loader.get_single_node()
        except RecursionError:
            raise ScenarioError(f"{source}: nested more than {MAX_DEPTH} levels deep") from None
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
            problem = getattr(error, "problem", None) or "not valid YAML"
            raise ScenarioError(f"{source}: {where}{problem}") from None
        if node is None:
            return None
        _measure(node, source, max_nodes)
        try:
            return loader.construct_document(node)
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
            problem = getattr(error, "problem", None) or "not valid YAML"
            raise ScenarioError(f"{source}: {where}{problem}") from None
        except RecursionError:
            raise ScenarioError(f"{source}: nested more than {MAX_DEPTH} levels deep") from None
    finally:
        loader.dispose()


def load_file(path: str | Path) -> Any:
    """Read and parse a file within the limits; :class:`ScenarioError` naming it otherwise."""
    file = Path(path)
    try:
        with file.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise ScenarioError(f"cannot read {file}: {error.strerror or error}") from None
    if len(raw) > MAX_BYTES:
        raise ScenarioError(f"{file}: larger than {MAX_BYTES // (1024 * 1024)} MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ScenarioError(
            f"{file}: not UTF-8 text (byte {error.start + 1}, line {line})"
        ) from None
    return parse_text(text.removeprefix("\ufeff"), str(file))
