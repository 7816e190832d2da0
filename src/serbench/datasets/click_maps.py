"""S4 click-maps: analytics documents stored one blob each (Java, 2014).

The original 176k documents are private; these are synthetic with the same shape:
a page URL, a day, a viewport and a map from "x,y" to click records, with a
long-tailed number of clicks per document.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from serbench.datasets.spec import DatasetSpec, Scale

SEED = 20140915
DOCUMENTS = {"quick": 100, "standard": 1_000, "full": 2_000}
MAX_CLICKS = 400
BASE_DAY = date(2014, 3, 1)
BASE_MS = 1_393_632_000_000  # 2014-03-01T00:00:00Z
VIEWPORTS = [(1920, 1080), (1366, 768), (1440, 900), (1280, 800), (375, 667), (768, 1024)]
SITES = ["shop.example.com", "news.example.org", "blog.example.net", "docs.example.io"]
SECTIONS = ["products", "article", "search", "cart", "account", "help", "category"]
TAGS = ["div", "a", "button", "span", "img", "li", "input"]
CLASSES = ["nav", "item", "btn", "primary", "card", "title", "menu", "footer", "hero", "price"]


def _selector(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 5)):
        part = rng.choice(TAGS)
        if rng.random() < 0.7:
            part += "." + rng.choice(CLASSES)
        if rng.random() < 0.2:
            part += f":nth-child({rng.randint(1, 12)})"
        parts.append(part)
    return " > ".join(parts)


def _document(rng: random.Random, index: int) -> dict[str, Any]:
    width, height = rng.choice(VIEWPORTS)
    # Pareto-distributed click counts: most pages have a few clicks, some hundreds.
    n_clicks = min(MAX_CLICKS, int(rng.paretovariate(1.1) * 3))
    day = rng.randrange(90)
    day_ms = BASE_MS + day * 86_400_000
    clicks: dict[str, Any] = {}
    while len(clicks) < n_clicks:
        x, y = rng.randrange(width), rng.randrange(height * 3)
        key = f"{x},{y}"
        if key in clicks:
            continue
        clicks[key] = {
            "x": x,
            "y": y,
            "count": max(1, int(rng.expovariate(0.3))),
            "lastClick": day_ms + rng.randrange(86_400_000),
            "selector": _selector(rng),
        }
    return {
        "url": f"https://{rng.choice(SITES)}/{rng.choice(SECTIONS)}/{index}",
        "day": (BASE_DAY + timedelta(days=day)).isoformat(),
        "viewport": {"width": width, "height": height},
        "clicks": clicks,
    }


def generate(scale: Scale) -> tuple[list[Any], int]:
    rng = random.Random(SEED)
    n = DOCUMENTS[scale]
    docs = [_document(rng, i) for i in range(n)]
    return docs, n


SPEC = DatasetSpec(
    name="click-maps",
    scenario="S4",
    title="analytics click-map documents, one blob each (Java, 2014)",
    framing="stream",
    generate=generate,
    schema_dir="click-maps",
)
