"""The call-stream schema accepts what cueref writes and rejects what it must not."""

import json

import pytest

from adjudication.events import Event, EventKind, ObjectRef
from cueref.stream import JsonlSink, match_start, read_jsonl, validation_errors

GOOD_EVENT = Event(EventKind.CONTACT, 1.2345, 37, 1,
                   (ObjectRef(1, "cue_ball"), ObjectRef(2, "ball_1")), (10.0, -3.5), 0.98)


def test_an_event_line_is_valid():
    assert validation_errors(GOOD_EVENT.to_json()) == []


def test_event_round_trips_through_json():
    assert Event.from_json(json.loads(json.dumps(GOOD_EVENT.to_json()))) == GOOD_EVENT


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"v": 2}, "v"),
        ({"kind": "bounce"}, "kind"),
        ({"objects": [{"id": 1, "label": "ball_16"}]}, "objects"),
        ({"confidence": 1.5}, "confidence"),
        ({"t_s": -1.0}, "t_s"),
    ],
)
def test_bad_event_lines_are_rejected(change, message):
    line = {**GOOD_EVENT.to_json(), **change}
    errors = validation_errors(line)
    assert errors and any(message in e for e in errors)


def test_cushion_event_needs_its_cushion_name():
    line = Event(EventKind.CUSHION, 1.0, 30, 1, (ObjectRef(1, "cue_ball"),), (0.0, 0.0),
                 cushion="foot").to_json()
    assert validation_errors(line) == []
    del line["cushion"]
    assert validation_errors(line)


def test_sink_refuses_an_invalid_line_and_writes_valid_ones(tmp_path):
    path = tmp_path / "calls.jsonl"
    start = match_start(game="9ball", table="pool-9ft", source="x.mp4", fps=30,
                        frame_wh=(1280, 720), players=["A", "B"])
    with JsonlSink(path) as sink:
        sink.write(start)
        sink.write(GOOD_EVENT.to_json())
        with pytest.raises(ValueError, match="invalid"):
            sink.write({"v": 1, "type": "call", "shot": 1})
    lines = read_jsonl(path)
    assert [ln["type"] for ln in lines] == ["match_start", "event"]
