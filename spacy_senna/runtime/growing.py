"""Arrays that labelling's caches append to (words' feature ids, kept encodings, the
attribute ruler's rows): written in place and grown by doubling, so taking in a text's
new rows copies the old ones only now and then, not at every call."""

import numpy

#: the rows a buffer starts with
FIRST_ROWS = 1024


def appended(buffer: numpy.ndarray, used: int, rows: numpy.ndarray) -> numpy.ndarray:
    """`buffer` with `rows` written after its first `used` rows: the same array where it
    has room, else a new one twice as long (at least `FIRST_ROWS`) holding those rows
    first. Rows past the last written are undefined."""
    end = used + len(rows)
    if end > len(buffer):
        shape = (max(2 * len(buffer), end, FIRST_ROWS), *rows.shape[1:])
        grown = numpy.empty(shape, dtype=rows.dtype)
        if used:
            grown[:used] = buffer[:used]
        buffer = grown
    buffer[used:end] = rows
    return buffer
