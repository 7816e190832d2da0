"""What the machine and checkout looked like, recorded with every run."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path
from typing import Any

from serbench import __version__
from serbench.paths import REPO_ROOT
from serbench.timing import GIT_TIMEOUT_S


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _cpu_model() -> str | None:
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or None


def _cpu_flags() -> str | None:
    """The first CPU's feature flags, sorted (a vectorised library runs differently without
    AVX2, say, on the same model name)."""
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        if line.startswith(("flags", "Features")):
            return " ".join(sorted(line.split(":", 1)[1].split()))
    return None


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=GIT_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def collect() -> dict[str, Any]:
    mem = next(
        (
            line.split()[1]
            for line in (_read("/proc/meminfo") or "").splitlines()
            if line.startswith("MemTotal")
        ),
        None,
    )
    return {
        "serbench": __version__,
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty": bool(_git("status", "--porcelain")),
        "hostname": platform.node(),
        "cpu_model": _cpu_model(),
        "cpu_flags": _cpu_flags(),
        "cpu_count": os.cpu_count(),
        "memory_kib": int(mem) if mem else None,
        "kernel": platform.release(),
        "os": platform.platform(),
        "governor": _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        "python": platform.python_version(),
    }
