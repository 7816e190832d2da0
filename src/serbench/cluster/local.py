"""A Ray cluster on this machine, on the loopback address only: a head that measures nothing
and N nodes that each offer one serbench_node, for the tests and the speed-up benchmark.

Each `ray start --block` runs in its own process group, so stopping the cluster ends
exactly the processes it started. Ray (2.52) swaps a 127.0.0.1 it is given for the
machine's interface address whenever it runs a cluster of several nodes; told it is not a
cluster (LOOPBACK_ENV) it keeps 127.0.0.1 but refuses to start a second node. So every Ray
process here runs with LOOPBACK_ENV, and `ray start` runs through _START, which lets a
node join and keeps the address it is given: every Ray process then registers and dials
127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from serbench.timing import (
    CLUSTER_CONNECT_MARGIN_S,
    CLUSTER_POLL_S,
    CLUSTER_START_TIMEOUT_S,
    CLUSTER_STOP_GRACE_S,
)

LOOPBACK = "127.0.0.1"
# Ray's own switch: false makes it keep the loopback address it is given
LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}
OBJECT_STORE_BYTES = 80 * 1024 * 1024  # blocks move only small arguments


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return int(s.getsockname()[1])


# `ray start ARGS` in a process where Ray accepts a node joining a cluster and keeps the
# loopback address; the processes it starts inherit LOOPBACK_ENV, so they keep it too
_START = """
import sys
import ray._private.ray_constants as constants
import ray._private.services as services
constants.ENABLE_RAY_CLUSTER = True
services.resolve_ip_for_localhost = lambda host: host
from ray.scripts.scripts import main
sys.argv = ["ray", "start", *sys.argv[1:]]
main()
"""


@dataclass
class LocalCluster:
    nodes: int = 2
    logs: Path = Path("/tmp")
    env: dict[str, str] = field(default_factory=dict)  # extra environment of every node
    port: int = field(default_factory=free_port)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)  # by name

    @property
    def address(self) -> str:
        return f"{LOOPBACK}:{self.port}"

    def _start(self, name: str, args: list[str], env: dict[str, str] | None = None) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)
        log = (self.logs / f"ray-{name}.log").open("wb")
        self.procs[name] = subprocess.Popen(
            [
                *(sys.executable, "-c", _START, "--block", f"--node-ip-address={LOOPBACK}"),
                *args,
                *_ports(),
                f"--object-store-memory={OBJECT_STORE_BYTES}",
                "--disable-usage-stats",
                # nothing reads the workers' logs from the driver (log_to_driver off)
                "--include-log-monitor=false",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **LOOPBACK_ENV, **self.env, **(env or {})},
            start_new_session=True,  # its own process group: stop() ends it all
        )

    def start(self) -> LocalCluster:
        """The head, then each node in turn (nodes started at once race for ports)."""
        self._start(
            "head",
            ["--head", f"--port={self.port}", "--num-cpus=0", "--include-dashboard=false"],
        )
        self.wait(0)
        for k in range(self.nodes):
            self.add_node(f"node{k}")
        return self

    def add_node(self, name: str, env: dict[str, str] | None = None) -> None:
        """One more node offering one serbench_node; returns once it is up."""
        self._start(
            name,
            [
                f"--address={self.address}",
                "--num-cpus=1",
                "--resources=" + json.dumps({"serbench_node": 1}),
            ],
            env,
        )
        self.wait(self._nodes())

    def remove_node(self, name: str) -> None:
        """Stop one node started by add_node; returns once the cluster has let it go."""
        _stop([self.procs.pop(name)])
        self.wait(self._nodes())

    def _nodes(self) -> int:
        return sum(1 for name, p in self.procs.items() if name != "head" and p.poll() is None)

    def wait(self, nodes: int) -> list[dict[str, object]]:
        """Until exactly ``nodes`` serbench nodes are alive; ray.nodes() then (a driver of its
        own, so the caller's process stays free to join the cluster with its own options)."""
        if any(p.poll() is not None for p in self.procs.values()):
            raise RuntimeError(f"a ray start exited: see {self.logs}/ray-*.log")
        out = subprocess.run(
            [sys.executable, "-c", _WAIT, self.address, str(nodes), str(CLUSTER_START_TIMEOUT_S)],
            capture_output=True,
            text=True,
            env={**os.environ, **LOOPBACK_ENV},
            timeout=CLUSTER_START_TIMEOUT_S + CLUSTER_CONNECT_MARGIN_S,
        )
        if out.returncode:
            raise TimeoutError(f"{nodes} Ray nodes not up: {out.stderr[-2000:]}")
        return list(json.loads(out.stdout.strip().splitlines()[-1]))

    def pgids(self) -> set[int]:
        return {p.pid for p in self.procs.values()}

    def stop(self) -> None:
        """Every process group this cluster started ended."""
        _stop(list(self.procs.values()))
        self.procs.clear()

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM each `ray start`'s process group (it stops its node and leaves the cluster),
    then SIGKILL what is left."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, sig)
        deadline = time.monotonic() + CLUSTER_STOP_GRACE_S
        while time.monotonic() < deadline and any(p.poll() is None for p in procs):
            time.sleep(CLUSTER_POLL_S)


def _ports() -> list[str]:
    """Ports of a node's own services, chosen here: each node's default ones are the same
    numbers, which two nodes on one machine cannot both bind."""
    names = (
        "node-manager-port",
        "object-manager-port",
        "metrics-export-port",
        "dashboard-agent-listen-port",
        "dashboard-agent-grpc-port",
        "runtime-env-agent-port",
    )
    return [f"--{n}={free_port()}" for n in names]


_WAIT = """
import json, sys, time
import ray
address, want, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
deadline = time.monotonic() + timeout
while True:
    try:
        ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        break
    except ConnectionError:
        if time.monotonic() > deadline:
            raise
        time.sleep(1)
while True:
    nodes = [n for n in ray.nodes() if n["Alive"]]
    have = sum(1 for n in nodes if n["Resources"].get("serbench_node"))
    if have == want:
        break
    if time.monotonic() > deadline:
        sys.exit(f"{have} serbench nodes alive, not {want}")
    time.sleep(1)
print(json.dumps([{k: n[k] for k in ("NodeID", "NodeManagerAddress", "Resources")} for n in nodes]))
"""
