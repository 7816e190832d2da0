"""The five seeds' published tables beside this machine's measurements, claims checked.

Claims are ratios measured within one run (never absolute times across machines), each
with the interval that follows from the two cells' 95% intervals (a_low / b_high,
a_high / b_low). A verdict is decided by the whole interval: ``holds`` when all of it
reaches the claimed factor, ``direction only`` when all of it points the claim's way but
falls short, ``does not hold`` when all of it lies on the other side, and ``undecided``
when it straddles a threshold.

An imprecise cell (95% interval wider than ±3% of its headline) decides like any other:
its width is already in the ratio's interval, so an interval far from every threshold
decides. When the interval straddles one, the reason names the imprecise cell(s) if a
cell measured to the precision target would have decided it.

A cell with no single figure (``not-steady``, ``processes-disagree``, or processes that
did not confirm a fast mode) has no headline a re-run would confirm, so its interval
decides nothing. Its possible range does: the fastest to the slowest process's fastest
slice, widened to its 95% interval. When the claim is settled for every value in that
range the verdict stands, and its evidence says it was decided on the range; otherwise
it is ``undecided`` and the reason names the cell.
``Verdict.why`` is set exactly when a claim is undecided.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any

from serbench import datasets, reference_versions
from serbench.report.model import Row, RunReport
from serbench.stats import PRECISION_TARGET

# Published rows: label -> serializer names that stand for it, in order of preference.
STAND_INS: dict[str, list[str]] = {
    "Java Serializable": ["java-serialization", "pickle"],
    "Parcelable (hand-written)": ["handwritten"],
    "MessagePack": [
        "msgpack-core",
        "msgpack-positional",
        "msgpack",
        "msgpack-c-positional",
        "msgpack-c",
    ],
    "MessagePack (zero-copy)": ["msgpack-zerocopy"],
    "Protocol Buffers": ["protobuf"],
    "Kryo": ["kryo-unregistered", "kryo"],
    "Kryo + Deflate": ["kryo-deflate"],
    "JSON": ["jackson-json", "orjson", "json", "nlohmann-json", "nsjsonserialization"],
    "BSON": ["bson", "libbson"],
    "XML": ["jackson-xml"],
    "platform binary": ["java-serialization", "pickle", "boost-binary", "binaryformatter"],
    # S5's rows by the seed's own names (the .NET runner has most of them)
    "BinaryFormatter": ["binaryformatter"],
    "XmlSerializer": ["xmlserializer"],
    "DataContractSerializer (XML)": ["datacontractserializer"],
    "DataContractSerializer (binary XML)": ["datacontractserializer-binary"],
    "DataContractJsonSerializer": ["datacontractjsonserializer"],
    "DataContractJsonSerializer (binary)": ["datacontractjsonserializer-binary"],
    "NetDataContractSerializer": ["netdatacontractserializer"],
    "NetDataContractSerializer (binary)": ["netdatacontractserializer-binary"],
    "protobuf-net": ["protobuf"],  # not installable (NuGet): other runners' protobuf stands in
    "MessagePack (2010 C#)": ["msgpack-core", "msgpack-positional", "msgpack", "msgpackr"],
    "Json.NET": ["json.net"],
    "Json.NET BSON": ["json.net-bson"],
}
SEED_ONLY_ROWS = {  # seed rows with no runner's row beside them, and why
    "protobuf-net": "NuGet is not reachable here: other runners' protobuf rows stand in",
    "MessagePack (2010 C#)": "NuGet is not reachable here: other runners' MessagePack rows "
    "stand in",
}


@dataclass
class Published:
    scenario: str
    title: str
    datasets: list[str]
    columns: list[str]
    rows: list[tuple[str, ...]]
    method: str
    seed_n: dict[str, int] = field(default_factory=dict)  # dataset -> messages in the seed


@dataclass
class Verdict:
    claim: str
    runner: str
    measured: float | None
    low: float | None  # the ratio's 95% interval
    high: float | None
    published: float
    needs: float
    verdict: str
    evidence: str  # the rows of the ratio, and what it was decided on if not the interval
    why: str = ""  # what kept it undecided: set exactly when the verdict is "undecided"


NO_FIGURE = {  # why a cell has no single figure -> the clause naming such a cell
    "not steady": "that is not steady",
    "processes disagree": "whose processes disagree",
    "unconfirmed": "whose processes did not confirm a fast mode",
}


@dataclass(frozen=True)
class Measure:
    """A metric of one row: value and 95% interval (equal for exact sizes).

    ``wide``: the interval's half-width ("±3.5%") when it misses the precision target.
    ``no_figure``: a key of NO_FIGURE when the cell has no headline a re-run confirms;
    ``span`` is then every value the cell may take, which a verdict decides on instead."""

    value: float
    low: float
    high: float
    cell: str = ""  # "java/protobuf decode", to name it in a verdict's reason
    wide: str = ""
    no_figure: str = ""
    span: tuple[float, float] | None = None

    @property
    def bounds(self) -> tuple[float, float]:
        """What a verdict may rely on: the 95% interval, or the range of a cell without a
        single figure."""
        if self.no_figure and self.span is not None:
            return self.span
        return self.low, self.high

    def at_target(self) -> Measure:
        """The same cell measured to the precision target: its interval cut to ±3%."""
        half = PRECISION_TARGET * self.value
        low, high = max(self.low, self.value - half), min(self.high, self.value + half)
        return replace(self, low=low, high=high, wide="")


SCENARIOS: dict[str, Published] = {
    "S1": Published(
        "S1",
        "android-users (Java on Android, 2016; thread CPU ns, mean of 4 runs)",
        ["android-users"],
        ["serializer", "ser ns", "deser ns", "bytes", "footprint KB"],
        [
            ("Java Serializable", "605,078", "1,380,990", "1,353", "0"),
            ("Parcelable (hand-written)", "206,041", "195,209", "1,324", "0"),
            ("MessagePack", "338,763", "1,734,232", "383", "276.2"),
            ("Protocol Buffers", "193,763", "139,284", "560", "582.7"),
            ("Kryo", "814,779", "303,255", "511", "279.0"),
        ],
        "thread CPU time per operation",
    ),
    "S2": Published(
        "S2",
        "pb-vs-msgpack (C++, 2008; seconds for the whole loop)",
        [f"pb-vs-msgpack-test{i}" for i in range(1, 5)],
        ["test", "PB ser s", "PB deser s", "PB MB", "MP ser s", "MP deser s", "MP MB"],
        [
            ("Test1", "0.82", "0.41", "40", "0.42", "2.00", "24"),
            ("Test2", "1.46", "0.76", "184", "0.56", "2.03", "24"),
            ("Test3", "1.28", "0.083", "256", "0.35", "0.0048", "256"),
            ("Test4", "1.27", "0.090", "257", "0.34", "0.027", "256"),
        ],
        "wall time of the whole loop, scaled to the seed's N",
        {
            "pb-vs-msgpack-test1": 2**23,
            "pb-vs-msgpack-test2": 2**23,
            "pb-vs-msgpack-test3": 2**15,
            "pb-vs-msgpack-test4": 2**15,
        },
    ),
    "S3": Published(
        "S3",
        "one-mb-dict (Objective-C on iOS, 2012; seconds, mean of 5)",
        ["one-mb-dict"],
        ["serializer", "encode s", "decode s"],
        [("JSON", "0.032196", "0.022391"), ("MessagePack", "0.009353", "0.021298")],
        "wall time per operation; objc rows: the seed's API, NSJSONSerialization, in GNUstep "
        "Base's implementation, not Apple's (GNU runtime, gcc, Linux; it reads every JSON number "
        "as a double and writes a space after ':'), and msgpack-c's C API from Foundation "
        "objects, the C library MessagePack for Objective-C wraps",
    ),
    "S4": Published(
        "S4",
        "click-maps (Java, 2014; published as ratios only)",
        ["click-maps"],
        ["claim", "published"],
        [
            ("Kryo vs Java serialization, serialize", ">3x faster"),
            ("Kryo vs Java serialization, deserialize", "40x faster"),
            ("Kryo+Deflate vs Java serialization, deserialize", "9x faster"),
            ("Kryo vs Java serialization, size", "5x smaller"),
            ("Kryo+Deflate vs Java serialization, size", "11x smaller"),
            ("Kryo+Deflate vs BSON, size", ">70% smaller"),
        ],
        "wall time per operation; Kryo+Deflate = kryo-deflate or Kryo bytes + zlib",
    ),
    "S5": Published(
        "S5",
        "log-records (C# on .NET, 2010; seconds for 100,000 records)",
        ["log-records"],
        ["serializer", "ser s", "MB", "deser s", "check"],
        [
            ("BinaryFormatter", "6.47", "53", "59.17", "OK"),
            ("XmlSerializer", "7.70", "59", "2.71", "NG"),
            ("DataContractSerializer (XML)", "2.15", "149", "6.35", "OK"),
            ("DataContractSerializer (binary XML)", "1.47", "78", "3.56", "OK"),
            ("DataContractJsonSerializer", "2.60", "47", "10.54", "OK"),
            ("DataContractJsonSerializer (binary)", "2.50", "75", "7.27", "OK"),
            ("NetDataContractSerializer", "9.18", "183", "9.10", "OK"),
            ("NetDataContractSerializer (binary)", "8.20", "99", "7.40", "OK"),
            ("protobuf-net", "0.70", "13", "0.92", "OK"),
            ("MessagePack (2010 C#)", "93.38", "46", "29.83", "OK"),
            ("Json.NET", "7.50", "38", "11.75", "OK"),
            ("Json.NET BSON", "11.78", "44", "12.01", "OK"),
        ],
        "wall time per operation, scaled to 100,000 records",
        {"log-records": 100_000},
    ),
}


def stand_in(
    rows: list[Row],
    runner: str,
    label: str,
    failed_too: bool = False,
    names: Mapping[str, Sequence[str]] = STAND_INS,
) -> Row | None:
    """The runner's row standing in for a published label (claims take checked rows only;
    the side-by-side table shows NG rows too, with what they lost)."""
    usable = ("ok", "NG") if failed_too else ("ok",)
    by_name = {r.serializer: r for r in rows if r.runner == runner and r.status in usable}
    return next((by_name[n] for n in names.get(label, []) if n in by_name), None)


def decide(low: float, high: float, claimed: float, upper: float | None = None) -> str:
    if upper is not None:  # "about the same": the ratio must lie within [claimed, upper]
        if low >= claimed and high <= upper:
            return "holds"
        return "does not hold" if high < claimed or low > upper else "undecided"
    if low >= claimed:
        return "holds"
    if high < claimed:
        return "direction only" if low > 1 else "does not hold" if high < 1 else "undecided"
    return "undecided"


def _ratio(a: Measure, b: Measure) -> tuple[float, float]:
    """a/b over what each cell may rely on (Measure.bounds)."""
    (a_low, a_high), (b_low, b_high) = a.bounds, b.bounds
    return a_low / b_high, a_high / b_low


def _straddled(low: float, high: float, claimed: float, upper: float | None) -> str:
    marks = sorted({claimed, 1.0 if upper is None else upper})
    inside = [f"{m:.2f}x" for m in marks if low <= m <= high]
    return " and ".join(inside) or "a threshold"


@dataclass(frozen=True)
class Judgement:
    verdict: str
    note: str = ""  # for the evidence: decided on a cell's range rather than its interval
    why: str = ""  # what kept it undecided


def judge(a: Measure, b: Measure, claimed: float, upper: float | None = None) -> Judgement:
    """The verdict on a / b (the module docstring has the rules)."""
    low, high = _ratio(a, b)
    verdict = decide(low, high, claimed, upper)
    blind = [m for m in (a, b) if m.no_figure]
    if verdict != "undecided":
        if not blind:
            return Judgement(verdict)
        cells = " and of ".join(f"a cell {NO_FIGURE[m.no_figure]} ({m.cell})" for m in blind)
        return Judgement(
            verdict, f"decided on the range of {cells}: ratio within [{low:.2f}, {high:.2f}]"
        )
    kind = "range" if blind else "interval"
    across = _straddled(low, high, claimed, upper)
    reasons = [f"the {kind} [{low:.2f}, {high:.2f}] straddles {across}"]
    reasons += [f"{m.cell} has no single figure ({m.no_figure})" for m in blind]

    def wide(m: Measure) -> bool:
        return bool(m.wide) and not m.no_figure  # a range already holds any imprecision

    if wide(a) or wide(b):  # imprecision is why if cells at the precision target would decide
        a_t, b_t = (m.at_target() if wide(m) else m for m in (a, b))
        if decide(*_ratio(a_t, b_t), claimed, upper) != "undecided":
            reasons += [f"{m.cell} is imprecise ({m.wide})" for m in (a, b) if wide(m)]
    return Judgement("undecided", why="; ".join(reasons))


Metric = Callable[[Row], Measure | None]


def _time(op: str) -> Metric:
    def measure(r: Row) -> Measure | None:
        e = r.ops.get(op)
        if e is None:
            return None
        wide = ""
        if not e.precise:
            wide = f"±{100 * e.ci_half_width / e.headline_ns:.1f}%" if e.headline_ns else "wide"
        no_figure = ""
        if e.steady is False:
            no_figure = "not steady"
        elif e.processes_disagree:
            no_figure = "processes disagree"
        elif not e.has_figure:
            no_figure = "unconfirmed"
        span = min(e.process_min_ns, e.ci_low_ns), max(e.process_max_ns, e.ci_high_ns)
        return Measure(
            e.headline_ns, e.ci_low_ns, e.ci_high_ns, f"{r.name} {op}", wide, no_figure, span
        )

    return measure


def _size(codec: str = "encoded") -> Metric:
    def measure(r: Row) -> Measure | None:
        n = r.sizes.get(codec)
        return Measure(n, n, n) if n else None

    return measure


@dataclass
class Claim:
    text: str
    dataset: str
    slower: str  # stand-in label of the side that should be larger
    faster: str
    metric: Metric
    published: float  # the seed's own ratio
    needs: float  # the ratio at which the claim holds (80% of an "N times" figure)
    upper: float | None = None  # for "about the same" claims: holds within [needs, upper]


PB, MP, JS, KR = "Protocol Buffers", "MessagePack", "Java Serializable", "Kryo"
ENC, DEC, SIZE = _time("encode"), _time("decode"), _size()
S2_ENC = {"test1": 0.82 / 0.42, "test2": 1.46 / 0.56, "test3": 1.28 / 0.35, "test4": 1.27 / 0.34}

# fmt: off
CLAIMS: dict[str, list[Claim]] = {
    "S1": [
        Claim("Protobuf deserializes faster than MessagePack", "android-users", MP, PB, DEC,
              1_734_232 / 139_284, 1.0),
        Claim("MessagePack output is smaller than Protobuf's", "android-users", PB, MP, SIZE,
              560 / 383, 560 / 383),
        Claim("Java serialization serializes slower than a hand-written writer",
              "android-users", JS, "Parcelable (hand-written)", ENC, 605_078 / 206_041, 1.0),
        Claim("Java serialization deserializes slower than Kryo", "android-users", JS, KR, DEC,
              1_380_990 / 303_255, 1.0),
    ],
    "S2": [
        *(Claim(f"MessagePack serializes {t} 2-3.7x faster than Protobuf", f"pb-vs-msgpack-{t}",
                PB, MP, ENC, ratio, 2.0) for t, ratio in S2_ENC.items()),
        Claim("Protobuf decodes small integers (test1) ~5x faster", "pb-vs-msgpack-test1", MP, PB,
              DEC, 2.00 / 0.41, 4.0),
        Claim("Protobuf decodes negative integers (test2) faster", "pb-vs-msgpack-test2", MP, PB,
              DEC, 2.03 / 0.76, 1.0),
        Claim("negative int32 costs Protobuf 10 bytes: 7.7x larger", "pb-vs-msgpack-test2", PB,
              MP, SIZE, 184 / 24, 7.6),
        Claim("zero-copy MessagePack decodes the 8 KiB string 17x faster", "pb-vs-msgpack-test3",
              PB, "MessagePack (zero-copy)", DEC, 0.083 / 0.0048, 17 * 0.8),
    ],
    "S3": [
        Claim("MessagePack encodes the 1 MB map much faster than JSON", "one-mb-dict", "JSON",
              MP, ENC, 0.032196 / 0.009353, 2.0),
        Claim("MessagePack and JSON decode it in about the same time", "one-mb-dict", "JSON", MP,
              DEC, 0.022391 / 0.021298, 0.8, upper=1.25),
    ],
    "S4": [
        Claim("Kryo serializes >3x faster than Java serialization", "click-maps", JS, KR, ENC,
              3.0, 3.0),
        Claim("Kryo deserializes 40x faster than Java serialization", "click-maps", JS, KR, DEC,
              40.0, 40 * 0.8),
        Claim("Kryo+Deflate deserializes 9x faster than Java serialization", "click-maps", JS,
              "Kryo + Deflate", DEC, 9.0, 9 * 0.8),
        Claim("Kryo output is 5x smaller than Java serialization's", "click-maps", JS, KR, SIZE,
              5.0, 5 * 0.8),
        Claim("Kryo+Deflate output is 11x smaller than Java serialization's", "click-maps", JS,
              "Kryo + Deflate", SIZE, 11.0, 11 * 0.8),
        Claim("Kryo+Deflate saves >70% against BSON", "click-maps", "BSON", "Kryo + Deflate",
              SIZE, 1 / 0.3, 1 / 0.3),
    ],
    "S5": [
        Claim("protobuf serializes faster than BSON", "log-records", "BSON", PB, ENC,
              11.78 / 0.70, 1.0),
        Claim("protobuf output is smaller than BSON's", "log-records", "BSON", PB, SIZE,
              44 / 13, 1.0),
        Claim("the platform's binary formatter deserializes slower than protobuf", "log-records",
              "platform binary", PB, DEC, 59.17 / 0.92, 1.0),
    ],
}
# fmt: on


@dataclass
class SpreadClaim:
    """One format, every implementation in every runner: slowest / fastest."""

    text: str
    dataset: str
    format: str
    op: str
    published: float
    needs: float


SPREAD_CLAIMS: dict[str, list[SpreadClaim]] = {
    "S5": [
        SpreadClaim(
            f"the same format can be fast or many times slower by implementation (JSON {op})",
            "log-records",
            "json",
            op,
            published,  # the seed's JSON rows: Json.NET vs DataContractJsonSerializer
            10.0,  # an order of magnitude between JSON libraries measured in one run
        )
        for op, published in (("encode", 7.50 / 2.60), ("decode", 11.75 / 10.54))
    ]
}


def _spread(claim: SpreadClaim, report: RunReport) -> Verdict | None:
    rows = [
        r
        for r in report.tables.get(claim.dataset, [])
        if r.status == "ok" and r.format == claim.format and claim.op in r.ops
    ]
    if len(rows) < 2:
        return None
    measure = _time(claim.op)
    by_time = sorted(rows, key=lambda r: r.ops[claim.op].headline_ns)
    fast, slow = by_time[0], by_time[-1]
    a, b = measure(slow), measure(fast)
    assert a is not None and b is not None
    j = judge(a, b, claim.needs)
    return Verdict(
        claim.text,
        f"{len(rows)} libraries",
        a.value / b.value,
        a.low / b.high,
        a.high / b.low,
        claim.published,
        claim.needs,
        j.verdict,
        _evidence(f"{slow.name} / {fast.name}", j),
        j.why,
    )


def _evidence(rows: str, j: Judgement) -> str:
    return f"{rows}; {j.note}" if j.note else rows


def check_claims(
    scenario: str, report: RunReport, names: Mapping[str, Sequence[str]] = STAND_INS
) -> list[Verdict]:
    """Every claim per runner; with today's stand-ins, each followed by its verdict on the
    seed's own library versions where the run has them (serbench.reference_versions)."""
    today = names is STAND_INS
    spread = SPREAD_CLAIMS.get(scenario, []) if today else []
    out = [v for c in spread if (v := _spread(c, report)) is not None]
    for claim in CLAIMS[scenario]:
        rows = report.tables.get(claim.dataset, [])
        for runner in sorted({r.runner for r in rows}):
            slow = stand_in(rows, runner, claim.slower, names=names)
            fast = stand_in(rows, runner, claim.faster, names=names)
            if slow is None or fast is None:
                continue
            a, b = claim.metric(slow), claim.metric(fast)
            evidence = f"{slow.name} / {fast.name}"
            if a is None or b is None:
                out.append(
                    Verdict(
                        claim.text,
                        runner,
                        None,
                        None,
                        None,
                        claim.published,
                        claim.needs,
                        "not measured",
                        evidence,
                    )
                )
                continue
            j = judge(a, b, claim.needs, claim.upper)
            out.append(
                Verdict(
                    claim.text,
                    runner,
                    a.value / b.value,
                    a.low / b.high,
                    a.high / b.low,
                    claim.published,
                    claim.needs,
                    j.verdict,
                    _evidence(evidence, j),
                    j.why,
                )
            )
    seed = reference_versions.stand_ins(scenario, STAND_INS) if today else None
    if seed is None:
        return out
    return reference_versions.beside(scenario, out, check_claims(scenario, report, seed))


def measured_rows(scenario: str, report: RunReport) -> list[tuple[str, str, Row]]:
    """(dataset, published label, measured row) for every stand-in this run has."""
    pub = SCENARIOS[scenario]
    seed_labels = [r[0] for r in pub.rows]
    if scenario in ("S1", "S3"):
        labels = seed_labels
    elif scenario == "S5":
        labels = [*seed_labels, *(x for x in STAND_INS if x not in seed_labels)]
    else:
        labels = list(STAND_INS)
    seed = reference_versions.stand_ins(scenario, STAND_INS)
    out = []
    for ds in pub.datasets:
        rows = report.tables.get(ds, [])
        for runner in sorted({r.runner for r in rows}):
            seen: set[str] = set()
            for label, names in product(labels, (STAND_INS, seed or {})):  # seed's versions too
                row = stand_in(rows, runner, label, failed_too=True, names=names)
                if row is not None and row.name not in seen:
                    seen.add(row.name)
                    out.append((ds, label, row))
    return out


def measured_units(dataset: str, scale: str) -> int:
    """Messages (streams) or records (a single list) in the run's dataset, for scaling."""
    return datasets.get(dataset).build(scale).records  # type: ignore[arg-type]


def seed_method(scenario: str, timing: dict[str, Any]) -> float | None:
    """The seed's own simpler estimate from the first samples of one process, ns per op.

    S1: thread-CPU time of 5 runs, the first dropped, mean of 4. S2 and S5: one run,
    wall clock. S3: mean of 5 runs. S4 published no method.
    """
    per_op = 1 / max(int(timing["iterations"]), 1)
    wall, cpu = timing["wall_ns"], timing.get("cpu_ns") or timing["wall_ns"]
    if scenario == "S1" and len(cpu) >= 5:
        return sum(cpu[1:5]) / 4 * per_op
    if scenario in ("S2", "S5") and wall:
        return wall[0] * per_op
    if scenario == "S3" and len(wall) >= 5:
        return sum(wall[:5]) / 5 * per_op
    return None


def scaled(scenario: str, dataset: str, row: Row, records: int) -> dict[str, str]:
    """A measured row in the seed's units (S2 and S5 scaled to the seed's N): the
    headline estimator, and the seed's own method computed from the same samples."""
    seed_n = SCENARIOS[scenario].seed_n.get(dataset)

    def show(ns: float | None) -> str:
        if ns is None:
            return "-"
        if scenario == "S1":
            return f"{ns:,.0f}"
        if seed_n:
            ns = ns / records * seed_n
        return f"{ns / 1e9:.4g}"

    def t(op: str) -> str:
        est = row.ops.get(op)
        if est is None:
            return "-"
        return show(est.cpu_headline_ns or est.headline_ns if scenario == "S1" else est.headline_ns)

    def seed(op: str) -> str:
        timings = row.raw.get(op)
        return show(seed_method(scenario, timings[0])) if timings else "-"

    size = row.sizes.get("encoded")
    if size is not None and seed_n:
        size_text = f"{size / records * seed_n / 2**20:.0f} MiB"
    else:
        size_text = f"{size:,}" if size is not None else "-"
    return {
        "encode": t("encode"),
        "decode": t("decode"),
        "bytes": size_text,
        "encode_seed": seed("encode"),
        "decode_seed": seed("decode"),
    }
