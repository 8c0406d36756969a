"""The Ray backend's scheduling: a dead worker loses only its shard (no cluster needed)."""

import io
from types import SimpleNamespace

from spacy_senna.annotate.backends.ray import _dispatch
from spacy_senna.annotate.progress import Progress
from spacy_senna.annotate.results import ShardResult
from spacy_senna.annotate.shards import Shard


class RayError(Exception):
    pass


class Ref:
    def __init__(self, value):
        self.value = value


class FakeRay:
    """ray.wait/ray.get over finished-on-submit refs; refs of dead actors raise."""

    exceptions = SimpleNamespace(RayError=RayError)

    def wait(self, refs, num_returns=1):
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref):
        if isinstance(ref.value, Exception):
            raise ref.value
        return ref.value


class FakeActor:
    def __init__(self, dies=False):
        self.dies, self.done, self.lost = dies, [], []
        self.run = SimpleNamespace(remote=self._run)

    def _run(self, shard, output_dir):
        if self.dies:  # killed while annotating its first shard
            self.lost.append(shard.name)
            return Ref(RayError("The actor died unexpectedly"))
        self.done.append(shard.name)
        return Ref(ShardResult(shard.name, shard.source, docs=1, words=5))


def shards(n):
    return [Shard(f"f{i}", f"/f{i}", "text", 0, 1, 0, f"s{i}") for i in range(n)]


def quiet_progress(n):
    return Progress(n, bar=False, stream=io.StringIO())


def test_a_dead_worker_loses_only_its_shard():
    steady, doomed = FakeActor(), FakeActor(dies=True)
    results = _dispatch(FakeRay(), [steady, doomed], shards(6), "/out", quiet_progress(6))
    assert len(doomed.lost) == 1 and len(results) == 6
    failed = {r.name: r.error for r in results if r.error}
    assert failed == {doomed.lost[0]: "Ray worker lost: The actor died unexpectedly"}
    assert sorted(steady.done) == sorted({f"s{i}" for i in range(6)} - set(doomed.lost))


def test_when_every_worker_died_the_rest_fail_clearly():
    results = _dispatch(FakeRay(), [FakeActor(dies=True)], shards(3), "/out", quiet_progress(3))
    assert [(r.name, r.error) for r in results] == [
        ("s0", "Ray worker lost: The actor died unexpectedly"),
        ("s1", "no Ray worker left"),
        ("s2", "no Ray worker left"),
    ]
