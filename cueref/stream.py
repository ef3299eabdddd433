"""The call stream: JSON Lines out, each line checked against the published schema.

The stream is cueref's public API (DESIGN.md), so every writer goes through ``JsonlSink``,
which validates each line before it is written: a bug that would break a consumer fails
here, in our tests, instead of in someone's overlay.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import IO, Any

SCHEMA_VERSION = 1


@cache
def schema() -> dict[str, Any]:
    text = resources.files("cueref").joinpath("schema/callstream.v1.schema.json").read_text()
    return json.loads(text)


@cache
def _validator():  # type: ignore[no-untyped-def]
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


def validation_errors(line: Mapping[str, Any]) -> list[str]:
    """Human-readable schema violations of one line; empty when it is valid."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<line>'}: {e.message}"
        for e in _validator().iter_errors(dict(line))
    ]


def validate_line(line: Mapping[str, Any]) -> None:
    errors = validation_errors(line)
    if errors:
        raise ValueError(f"call-stream line of type {line.get('type')!r} is invalid: {errors[0]}")


def match_start(
    *,
    game: str,
    table: str,
    source: str,
    fps: float,
    frame_wh: tuple[int, int],
    players: Iterable[str],
    colours: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    line: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "type": "match_start",
        "game": game,
        "table": table,
        "source": source,
        "fps": fps,
        "frame_wh": list(frame_wh),
        "players": list(players),
    }
    if colours:
        line["colours"] = dict(colours)
    return line


class JsonlSink:
    """Writes validated call-stream lines to a file, or to stdout when ``path`` is None.

    >>> with JsonlSink(path) as sink:
    ...     sink.write(line)
    """

    def __init__(self, path: str | Path | None, *, validate: bool = True) -> None:
        self.path = Path(path) if path is not None else None
        self.validate = validate
        self.lines_written = 0
        self._fh: IO[str] | None = None

    def __enter__(self) -> JsonlSink:
        if self.path is None:
            self._fh = sys.stdout
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = self.path.open("w", encoding="utf-8")
        return self

    def write(self, line: Mapping[str, Any]) -> None:
        if self._fh is None:
            raise RuntimeError("JsonlSink.write called outside its with-block")
        if self.validate:
            validate_line(line)
        self._fh.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.lines_written += 1

    def flush(self) -> None:
        """Push what was written so far to the file (a reader sees complete lines)."""
        if self._fh is not None:
            self._fh.flush()

    def write_all(self, lines: Iterable[Mapping[str, Any]]) -> None:
        for line in lines:
            self.write(line)

    def __exit__(self, *exc: object) -> None:
        if self._fh is not None and self._fh is not sys.stdout:
            self._fh.close()
        elif self._fh is sys.stdout:
            sys.stdout.flush()
        self._fh = None


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """All lines of a call-stream file; ``ValueError`` names the first bad line."""
    out = []
    with Path(path).open(encoding="utf-8") as fh:
        for number, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            try:
                out.append(json.loads(text))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not JSON ({exc.msg})") from None
    return out
