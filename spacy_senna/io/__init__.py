"""Files in and out: text input that names file and line, atomic writes, DocBin decoding."""
