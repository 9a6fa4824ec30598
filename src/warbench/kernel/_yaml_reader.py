"""The YAML half of the bounded readers (``warbench.kernel.readers.parse_yaml``).

libyaml's parser (PyYAML's ``CParser``) where installed, else PyYAML's pure-Python parser, with
warbench's bounded composer on top of its events and PyYAML's safe constructor: depth and alias
expansion are counted while composing, keys must be text and appear once per mapping. A
separate module so that PyYAML is imported only by commands that read YAML.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import Composer, ComposerError
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import AliasEvent, ScalarEvent, SequenceStartEvent
from yaml.nodes import MappingNode, Node
from yaml.resolver import BaseResolver, Resolver

from warbench.kernel.errors import DataFileError, one_line, preview
from warbench.kernel.readers import InputLimitError, Limits, _number_problem

try:  # libyaml: the C scanner and parser; composing stays ours (bounded) in both cases
    from yaml.cyaml import CParser as _Parser  # type: ignore[attr-defined]

    LIBYAML = True
except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)

    LIBYAML = False


class _LimitReached(yaml.MarkedYAMLError):
    """Raised while composing: the document is too deep or its aliases expand too far."""


class _BoundedComposer(Composer):
    """PyYAML's composer, counting depth and alias expansion while it builds the node graph.

    ``_shape`` holds (expanded size, height) of every finished anchored node, so an alias costs
    what its anchored value would cost written out; an alias to an unfinished node is
    recursive. (``compose_node`` replaces PyYAML's own: it is the hot loop of every load.)
    """

    limits: Limits
    # provided by the parser class the composer is mixed with
    check_event: Any
    peek_event: Any
    get_event: Any

    def _init_bounds(self, limits: Limits) -> None:
        self.limits = limits
        self._max_depth = limits.max_depth
        self._depth = 0
        self._deepest = 0
        self._expanded = 0
        self._aliased = 0
        self._shape: dict[int, tuple[int, int]] = {}

    def _refuse(self, problem: str, mark: Any) -> None:
        raise _LimitReached(problem=problem, problem_mark=mark)

    def _too_deep(self, mark: Any) -> None:
        self._refuse(
            f"nested deeper than {self.limits.max_depth} levels, the limit for a "
            f"{self.limits.kind}",
            mark,
        )

    def _alias(self, event: Any) -> Node:
        anchor = event.anchor
        target: Node | None = self.anchors.get(anchor)
        if target is None:
            raise ComposerError(
                None, None, f"found undefined alias {preview(anchor, 30)}", event.start_mark
            )
        shape = self._shape.get(id(target))
        if shape is None:
            self._refuse(
                f"the alias *{one_line(str(anchor))[:30]} refers to the value it is part of "
                "(a recursive alias)",
                event.start_mark,
            )
            raise AssertionError  # pragma: no cover - _refuse raised
        size, height = shape
        self._expanded += size
        self._aliased += size
        if self._aliased > self.limits.max_alias_nodes:
            self._refuse(
                f"aliases expand to more than {self.limits.max_alias_nodes:,} values, "
                f"the limit for a {self.limits.kind}",
                event.start_mark,
            )
        reach = self._depth + height
        if reach > self._max_depth:
            self._too_deep(event.start_mark)
        if reach > self._deepest:
            self._deepest = reach
        self.get_event()
        return target

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()
        cls = event.__class__
        if cls is AliasEvent:
            return self._alias(event)
        anchor = event.anchor
        if anchor is not None and anchor in self.anchors:
            first = self.anchors[anchor].start_mark
            raise ComposerError(
                None,
                None,
                f"found the anchor &{one_line(str(anchor))[:30]} twice (first at line "
                f"{first.line + 1 if first else '?'})",
                event.start_mark,
            )
        depth = self._depth + 1
        if depth > self._max_depth:
            self._too_deep(event.start_mark)
        self._depth = depth
        saved = self._deepest
        self._deepest = depth
        start = self._expanded
        node: Node
        if cls is ScalarEvent:
            node = self.compose_scalar_node(anchor)
        elif cls is SequenceStartEvent:
            node = self.compose_sequence_node(anchor)
        else:
            node = self.compose_mapping_node(anchor)
        self._expanded += 1
        if anchor is not None:
            self._shape[id(node)] = (self._expanded - start, self._deepest - depth + 1)
        if saved > self._deepest:
            self._deepest = saved
        self._depth = depth - 1
        return node


class _BoundedLoader(_BoundedComposer, _Parser, SafeConstructor, Resolver):
    """libyaml's (or PyYAML's) parser, the bounded composer and the safe constructor."""

    def __init__(self, stream: str, limits: Limits) -> None:
        _Parser.__init__(self, stream)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self._init_bounds(limits)


def _construct_mapping(loader: SafeConstructor, node: MappingNode) -> dict[Any, Any]:
    """A mapping, refusing a key written twice (merged ``<<`` keys may be overridden)."""
    seen: dict[Any, Any] = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue
        key = loader.construct_object(key_node)
        if not isinstance(key, str):
            what = "a list or mapping" if isinstance(key, list | dict) else preview(key, 30)
            raise ConstructorError(
                None,
                None,
                f"a key must be text, not {what} (put it in quotes if it is a name)",
                key_node.start_mark,
            )
        first = seen.get(key)
        if first is not None:
            raise ConstructorError(
                None,
                None,
                f"found the key {preview(key, 40)} twice in one mapping "
                f"(first at line {first.line + 1})",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark
    loader.flatten_mapping(node)
    return loader.construct_mapping(node)


_BoundedLoader.add_constructor(  # type: ignore[type-var]
    BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping
)


def _yaml_reason(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.reader.ReaderError):
        return (
            f"malformed YAML: character #x{exc.character:04x} at position {exc.position} "
            f"is not allowed ({exc.reason})"
        )
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    if context and isinstance(
        exc, yaml.scanner.ScannerError | yaml.parser.ParserError | yaml.composer.ComposerError
    ):
        problem = f"{problem} ({context})"
    if mark is None:
        return one_line(f"malformed YAML: {problem}")
    where = f"at line {mark.line + 1}, column {mark.column + 1}"
    if isinstance(exc, _LimitReached | ConstructorError):
        return one_line(f"{where}: {problem}")
    return one_line(f"malformed YAML {where}: {problem}")


def parse(text: str, source: str, limits: Limits) -> Any:
    """The data of one YAML document, within ``limits`` (see ``readers.parse_yaml``)."""
    loader = None
    try:
        loader = _BoundedLoader(text, limits)
        return loader.get_single_data()
    except _LimitReached as exc:
        raise InputLimitError(source, _yaml_reason(exc)) from None
    except yaml.YAMLError as exc:
        raise DataFileError(source, _yaml_reason(exc)) from None
    except ValueError as exc:  # an integer with more digits than Python converts
        raise DataFileError(source, f"malformed YAML: {_number_problem(exc)}") from None
    finally:
        if loader is not None:
            loader.dispose()
