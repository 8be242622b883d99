"""Recordings made on the spot for the audio tests: a WAV of a sine tone from Python's own
`wave` module, and the first bytes of the other formats (enough for the upload's checks)."""

import io
import math
import struct
import wave

RATE = 8000


def sine_wav(seconds: float, frequency: float = 440.0, rate: int = RATE) -> bytes:
    """A mono 16-bit WAV of a quiet tone."""
    frames = b"".join(
        struct.pack("<h", int(8000 * math.sin(2 * math.pi * frequency * n / rate)))
        for n in range(int(seconds * rate))
    )
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames)
    return buffer.getvalue()


HEADERS = {
    "episode.mp3": b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(64),
    "frames.mp3": b"\xff\xfb\x90\x64" + bytes(64),
    "episode.ogg": b"OggS\x00\x02" + bytes(64),
    "episode.opus": b"OggS\x00\x02" + bytes(64),
    "episode.m4a": b"\x00\x00\x00\x20ftypM4A " + bytes(64),
    "episode.aac": b"\xff\xf1\x50\x80" + bytes(64),
    "episode.flac": b"fLaC\x00\x00\x00\x22" + bytes(64),
}
"""A file name and the first bytes of that format, padded."""


def named(data: bytes, name: str) -> io.BytesIO:
    file = io.BytesIO(data)
    file.name = name
    return file
