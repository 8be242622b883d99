"""Byte streams for StreamingHttpResponse: records batched into chunks of a useful size,
and zip archives written on the fly to an unseekable sink.

Archives are reproducible: every member gets the same fixed date and mode, members come in
a fixed order, and deflate (zlib's default level) is deterministic for a given input.
"""

import io
import zipfile
from collections.abc import Iterable, Iterator

CHUNK_BYTES = 64 * 1024
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def chunked(pieces: Iterable[bytes], size: int = CHUNK_BYTES) -> Iterator[bytes]:
    buffer: list[bytes] = []
    buffered = 0
    for piece in pieces:
        buffer.append(piece)
        buffered += len(piece)
        if buffered >= size:
            yield b"".join(buffer)
            buffer, buffered = [], 0
    if buffer:
        yield b"".join(buffer)


class _Sink(io.RawIOBase):
    """Collects what zipfile writes until the stream hands it on; not seekable, so zipfile
    writes sizes after each member (data descriptors) instead of seeking back."""

    def __init__(self) -> None:
        super().__init__()
        self._pieces: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]  # zipfile writes bytes only
        self._pieces.append(bytes(data))
        return len(data)

    def drain(self) -> bytes:
        data = b"".join(self._pieces)
        self._pieces.clear()
        return data


def stream_zip(members: Iterable[tuple[str, Iterable[bytes]]]) -> Iterator[bytes]:
    """`members` is consumed lazily, one member after the other, so a member's content may
    be produced while the previous one is written. Zip64 sizes, since a member's size is
    unknown when its header is written."""
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with archive.open(info, "w", force_zip64=True) as member:
                for chunk in chunked(content):
                    member.write(chunk)
                    yield from _nonempty(sink.drain())
            yield from _nonempty(sink.drain())
    yield from _nonempty(sink.drain())


def _nonempty(data: bytes) -> Iterator[bytes]:
    if data:
        yield data
