"""`python -m serbench.datasets [quick|full]`: write the canonical files, print their paths."""

import sys

from serbench.datasets import DATASETS

scale = sys.argv[1] if len(sys.argv) > 1 else "quick"  # quick, standard or full
for spec in DATASETS.values():
    print(spec.build(scale).path())  # type: ignore[arg-type]
