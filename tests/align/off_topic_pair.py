"""An English pair whose transcript has nothing to do with its report (issue 34's hand-written
pair: a 40-turn SRT about baking, a 10-segment Markdown report of a council meeting, with no
content word in common), written by the tests wherever they need a result the engine should
call degenerate."""

from __future__ import annotations

from pathlib import Path

SPEAKERS = ("Mrs. Brown", "Mr. Green", "Dr. White", "Ms. Black", "Mr. Grey")
REPORT_TOPICS = (
    "The library budget needs a new roof because the roof leaks every winter.",
    "Parking downtown is scarce and drivers circle for twenty minutes.",
    "The swimming pool will close in August for repairs to its heating.",
    "Snow removal on the hill streets costs more than the council planned.",
    "The bus line to the hospital should run every fifteen minutes.",
    "The school canteen will serve local vegetables from next term.",
    "Street lights on the river road will switch to lower power lamps.",
    "The market square needs benches and shade trees for the summer.",
    "Recycling bins will be collected every week instead of every two weeks.",
    "The council approves the accounts of last year and closes the session.",
)
BAKING = (
    "Whisk the eggs with sugar until pale and fluffy.",
    "Fold in the flour gently so the batter keeps its air.",
    "Butter the tin and dust it with cocoa powder.",
    "Bake it at one hundred eighty degrees until golden.",
    "Let the sponge cool on a rack before slicing it.",
    "Whip the cream with vanilla and a pinch of salt.",
    "Spread raspberry jam over the bottom layer of the cake.",
    "Press the top half down and chill it for an hour.",
)
TURNS = 40


def off_topic_report() -> str:
    lines = [f"{SPEAKERS[i % len(SPEAKERS)]}: {text}" for i, text in enumerate(REPORT_TOPICS)]
    return "# Council minutes\n\n" + "\n\n".join(lines) + "\n"


def off_topic_transcript() -> str:
    def time(seconds: int) -> str:
        return f"00:{seconds // 60:02d}:{seconds % 60:02d},000"

    cues = [
        f"{i + 1}\n{time(i * 5)} --> {time(i * 5 + 4)}\n"
        f"SPEAKER_0{i % 3}: {BAKING[i % 8]} {BAKING[(i * 3 + 1) % 8]}\n"
        for i in range(TURNS)
    ]
    return "\n".join(cues)


def write_off_topic_pair(folder: Path, name: str = "council") -> tuple[Path, Path]:
    """`<name>_report.md` and `<name>_transcript.srt` in `folder` (paired by name, as the web
    upload and `align --pairs` pair them)."""
    report = folder / f"{name}_report.md"
    transcript = folder / f"{name}_transcript.srt"
    report.write_text(off_topic_report(), encoding="utf-8")
    transcript.write_text(off_topic_transcript(), encoding="utf-8")
    return report, transcript
