"""A ready codec for rulesets whose states, actions and views are plain dataclasses.

:class:`TypeCodec` wraps a pydantic ``TypeAdapter``: ``dump`` writes JSON-mode data,
``load`` validates (so a malformed record line is a one-line
:class:`~warbench.kernel.errors.DataFileError`, not a traceback) and ``schema`` is the JSON
Schema committed under ``docs/schemas/play/``. A ruleset with its own JSON (WARSURGE's
``action_to_dict``) writes a small class with the same three methods instead.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from warbench.kernel.errors import DataFileError
from warbench.play.core import JSON

T = TypeVar("T")


class TypeCodec(Generic[T]):
    """JSON for any type pydantic understands (dataclasses, unions with a ``kind`` tag …)."""

    def __init__(self, tp: Any, name: str) -> None:
        self.name = name
        self._adapter: TypeAdapter[T] = TypeAdapter(tp)

    def dump(self, value: T) -> JSON:
        """JSON-mode data of ``value``."""
        return self._adapter.dump_python(value, mode="json")

    def load(self, data: JSON) -> T:
        """Validate ``data`` and build the value; a bad value is a one-line ``DataFileError``."""
        try:
            return self._adapter.validate_python(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "value"
            raise DataFileError(
                f"<{self.name}>", f"{where}: {first['msg']} (got {data!r})"
            ) from None

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of what :meth:`dump` writes."""
        out = self._adapter.json_schema()
        out.setdefault("title", self.name)
        return out
