"""Bytes a decoder did not write: conformance suites and corrupted input (issue 23)."""
