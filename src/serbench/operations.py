"""The operations a cell can time (docs/runner-protocol.md section 3), named once."""

CODECS = ("zlib", "zstd", "lz4")
COMPRESSED = tuple(op for c in CODECS for op in (f"encode+{c}", f"{c}+decode"))
OPERATIONS = ("encode", "decode", *COMPRESSED)
