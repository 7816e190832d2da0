"""`serbench run --cluster`: the run's blocks handed out to the nodes of a Ray cluster.

Ray is optional (`pip install serbench[cluster]`): only `dispatch` imports it, and only a
run given --cluster imports `dispatch`. `machine` (machine classes) and `node` (what runs on
a node) need no Ray.
"""


class ClusterError(RuntimeError):
    """The cluster cannot finish the run: no node accepted, or a block keeps failing."""
