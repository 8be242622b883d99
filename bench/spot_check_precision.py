"""How close the estimate with a spot check can come to the residual error, by the share of
unread turns the check reads, as JSON: the arithmetic behind #39's two criteria pulling apart.

    python -m bench.spot_check_precision [--documents 6] [--turns 2116] [--unread 0.7] \\
        [--left 0.02] [--shares 0.03,0.05,0.1,0.2,0.3] [--iterations 21]

The defaults describe a batch of six public_meetings meetings (7,758 turns / 22 x 6) of which
the review left 70 % unread and 2 % of the batch wrong, as in the loop's iterations 3 and 4
(docs/review.md). `workers.align.annotation.spot_check.spot_check_precision` gives the
combined error's standard deviation, the model's (`model_error_sd`, a point of a batch of four
documents or more) weighed with the sample's by the inverse of their variances, as
`residual_error_spot_checked` weighs them. Per share it prints the turns drawn (and as a share
of the batch: reading that the 40 % bar counts), that standard deviation in points, the
probability that a normal error of that spread falls within 1 point, and the
probability that all `--iterations` do. It reads no corpus and runs in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import math

from workers.align.annotation.spot_check import model_error_sd, spot_check_precision


def within(points: float, sd_points: float) -> float:
    """P(|e| <= points) for a centred normal e of standard deviation `sd_points`."""
    return math.erf(points / (sd_points * math.sqrt(2.0))) if sd_points > 0 else 1.0


def row(
    *, documents: int, turns: int, unread: int, left: float, share: float, iterations: int
) -> dict[str, float]:
    precision = spot_check_precision(
        documents=documents, turns=turns, unread=unread, expected_wrong=left * turns, share=share
    )
    combined_points = 100 * precision.combined_error_sd
    one_iteration = within(1.0, combined_points)
    return {
        "share": share,
        "turns_drawn": precision.turns_drawn,
        "read_share_of_batch": round(precision.turns_drawn / turns, 4),
        "combined_sd_points": round(combined_points, 2),
        "p_within_1_point": round(one_iteration, 3),
        "p_all_iterations_within_1_point": round(one_iteration**iterations, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=6)
    parser.add_argument("--turns", type=int, default=2116)
    parser.add_argument("--unread", type=float, default=0.7)
    parser.add_argument("--left", type=float, default=0.02)
    parser.add_argument("--shares", default="0.03,0.05,0.1,0.2,0.3")
    parser.add_argument("--iterations", type=int, default=21)
    args = parser.parse_args()
    if not (args.documents >= 1 and args.turns > 1 and 0 < args.unread <= 1):
        parser.error("need --documents >= 1, --turns > 1 and 0 < --unread <= 1")
    if not 0 < args.left < args.unread:
        parser.error("need 0 < --left < --unread")
    shares = [float(share) for share in args.shares.split(",")]
    if not all(0 < share <= 1 for share in shares):
        parser.error("each of --shares must lie in (0, 1]")
    unread = round(args.unread * args.turns)
    rows = [
        row(
            documents=args.documents,
            turns=args.turns,
            unread=unread,
            left=args.left,
            share=share,
            iterations=args.iterations,
        )
        for share in shares
    ]
    print(
        json.dumps(
            {
                "turns": args.turns,
                "unread": args.unread,
                "left": args.left,
                "documents": args.documents,
                "model_sd_points": round(100 * model_error_sd(args.documents), 2),
                "model_alone_p_within_1_point": round(
                    within(1.0, 100 * model_error_sd(args.documents)), 3
                ),
                "iterations": args.iterations,
                "shares": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
