"""Call coverage: do generated matches contain every camera-decidable call of each game?

    python benchmarks/call_coverage.py [--seeds 12] [--shots 12] [--write]

Plays ``--seeds`` simulated matches of ``--shots`` shots per game (the director only, no
rendering; every other Novuss match starts mid-set) and counts the rules the referee
cited. ``EXPECTED`` lists, per game, the rules of RULES.md that the camera decides and
that the bots are built to provoke (RULES §1.5, §2.5, §3-§6); the report gives the share
of them seen, what is missing, and the shots per second of the director. With --write the
figures replace the call-coverage section of BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudication.games import Game  # noqa: E402
from benchmarks.report import replace_section  # noqa: E402
from simulation.match import ClipSettings, direct  # noqa: E402

POOL_FOULS = ("WPA 6.1", "WPA 6.3", "WPA 6.5", "WPA 6.6", "WPA 6.10")
NOVUSS_CALLS = (
    "Novuss E2 correct shot", "Novuss 18.1.а", "Novuss 18.1.б", "Novuss 18.1.в",
    "Novuss 18.1.д", "Novuss 17.1.б", "Novuss 17.1.в", "Novuss 17.1.г", "Novuss 17.1.д",
    "Novuss 17.1.е", "Novuss 17.1.з", "Novuss 17.1.и", "Novuss 17.1.л", "Novuss 17.1.н",
    "Novuss 16.1.а", "Novuss 16.1.г", "Novuss 20.3",
)
#: Rules whose calls each game's generated matches should contain (RULES.md references).
EXPECTED: dict[Game, tuple[str, ...]] = {
    Game.NINE_BALL: ("WPA 2.3", "WPA 8.2", "WPA 2.5", "WPA 2.6", "WPA 2.7", "WPA 2.8",
                     "WPA 6.2", *POOL_FOULS),
    Game.TEN_BALL: ("WPA 9.3", "WPA 8.2", "WPA 9.7", "WPA 9.8", "WPA 9.9", "WPA 9.10",
                    "WPA 9.11", "WPA 6.2", *POOL_FOULS),
    Game.EIGHT_BALL: ("WPA 3.3", "WPA 8.2", "WPA 3.4", "WPA 3.5", "WPA 3.8", "WPA 3.9",
                      "WPA 6.2", *POOL_FOULS),
    Game.STRAIGHT_POOL: ("WPA 4.3", "WPA 4.4", "WPA 4.6", "WPA 4.7", "WPA 4.9", "WPA 4.11",
                         "EST §10", "WPA 6.1", "WPA 6.3", "WPA 6.5", "WPA 6.6"),
    Game.NOVUSS: NOVUSS_CALLS,
    Game.NOVUSS_DOUBLES: NOVUSS_CALLS,
}


def survey(game: Game, seeds: int, shots: int) -> tuple[Counter[str], Counter[str], int, float]:
    rules: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    n_shots = 0
    t0 = time.perf_counter()
    for seed in range(seeds):
        # Every other Novuss match starts mid-set (clips start anywhere): only there do
        # players have the dark pawns that several Novuss rules are about.
        case = "mid_set" if game.is_novuss and seed % 2 else None
        script = direct(ClipSettings(game=game, seed=1000 + seed, shots=shots, case=case))
        for rec in script.shots:
            n_shots += 1
            for call in rec.judgement.calls:
                rules[call.rule] += 1
                outcomes[call.outcome.value] += 1
    return rules, outcomes, n_shots, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=12)
    ap.add_argument("--shots", type=int, default=12)
    ap.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = ap.parse_args()
    lines = [
        "## Call coverage of generated matches (simulation.match)",
        "",
        f"`python benchmarks/call_coverage.py --seeds {args.seeds} --shots {args.shots}`:"
        " matches played by the bots, judged by the rules engines; the expected rules are"
        " the camera-decidable calls the bots are built to provoke (`EXPECTED` in the script).",
        "",
        "| game | shots | expected rules seen | missing | outcomes seen | shots/s |",
        "|---|---|---|---|---|---|",
    ]
    for game, expected in EXPECTED.items():
        rules, outcomes, n, dt = survey(game, args.seeds, args.shots)
        seen = [r for r in expected if rules[r]]
        missing = [r for r in expected if not rules[r]]
        lines.append(
            f"| {game.value} | {n} | {len(seen)}/{len(expected)} | "
            f"{', '.join(missing) or '-'} | {', '.join(sorted(outcomes))} | {n / dt:.1f} |"
        )
        print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        replace_section("## Call coverage", text)


if __name__ == "__main__":
    main()
