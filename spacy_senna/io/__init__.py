"""Text, files and corpora in and out: text input, atomic writes, corpus readers, converters."""
