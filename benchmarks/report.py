"""Write one benchmark's section into BENCHMARKS.md, keeping the other sections."""

from __future__ import annotations

from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "BENCHMARKS.md"


def replace_section(heading: str, text: str, path: Path = BENCHMARKS) -> None:
    """Replace the section that starts with ``heading`` (a ``## `` line) by ``text``,
    or append it; the sections before and after stay as they are."""
    old = path.read_text() if path.exists() else "# Benchmarks\n"
    head, sep, rest = old.partition(heading)
    tail = ""
    if sep:
        nxt = rest.find("\n## ")
        tail = rest[nxt + 1:] if nxt >= 0 else ""
    path.write_text(head.rstrip() + "\n\n" + text.rstrip() + "\n" + ("\n" + tail if tail else ""))
