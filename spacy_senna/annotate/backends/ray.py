"""Annotate shards on a Ray cluster: one actor per worker, each loading the pipeline once.

Actors read their shards from and write their outputs to paths every node can reach
(a shared file system, or object storage mounted on each node). A shard whose actor
dies is reported as failed and the other shards go on; a re-run redoes only the
shards whose output is missing. Needs the `ray` extra: pip install "spacy-senna[ray]".
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

from ..progress import Progress
from ..results import BackendRun, ShardResult
from ..settings import AnnotateSettings
from ..shards import Shard
from ..worker import ShardWorker


def import_ray() -> Any:
    """The ray module, or a clear error on how to install it."""
    try:
        import ray
    except ImportError:
        raise ValueError(
            '--backend ray needs Ray: pip install "spacy-senna[ray]" (or "ray>=2.9")'
        ) from None
    return ray


def run_ray(
    pipeline: str,
    shards: List[Shard],
    output_dir: Path,
    settings: AnnotateSettings,
    progress: Progress,
    loaded: Callable[[], None],
) -> BackendRun:
    """Annotate `shards` with `settings.n_process` actors (timed once they are loaded);
    `loaded()` once every one has loaded the pipeline."""
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        _start(ray, settings)
    try:
        _check_capacity(ray, settings)
        options: Dict[str, Any] = {"num_cpus": 1}
        if settings.gpu_id >= 0:
            options["num_gpus"] = 1
        actor_class = ray.remote(**options)(ShardWorker)
        gpu_id = 0 if settings.gpu_id >= 0 else -1  # Ray exposes an actor's GPU as 0
        actors = [actor_class.remote(pipeline, settings, gpu_id) for _ in range(settings.n_process)]
        try:
            try:
                ray.get([actor.ready.remote() for actor in actors])
            except ray.exceptions.RayError as err:
                raise ValueError(f"Ray workers could not load the pipeline: {_cause(err)}") from err
            loaded()
            started = time.perf_counter()
            progress.start()
            results = _dispatch(ray, actors, shards, str(output_dir), progress)
            seconds = time.perf_counter() - started
        finally:
            for actor in actors:  # interrupted too: no actor goes on writing
                ray.kill(actor)
        peak = max((r.peak_rss_mib for r in results), default=0.0)
        return BackendRun(results, seconds, peak)
    finally:
        if started_here:
            ray.shutdown()


def _start(ray: Any, settings: AnnotateSettings) -> None:
    """Connect to the cluster at --address (or RAY_ADDRESS), or start a local one."""
    address = settings.address or os.environ.get("RAY_ADDRESS")
    if address:
        _check_reachable(address)
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(settings.n_process, os.cpu_count() or 1), log_to_driver=False)
    except Exception as err:  # connection refused, bad address, Ray version mismatch, ...
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise ValueError(f"Could not start {where}: {type(err).__name__}: {err}") from err


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a HOST:PORT (or ray://HOST:PORT) nobody listens on; Ray itself retries
    for many minutes. "auto" and other forms are left to Ray."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as err:
        raise ValueError(
            f"Could not start the Ray cluster at {address}: nothing answers there "
            f"({err.strerror or err}); start it with `ray start --head` or fix --address"
        ) from None


def _dispatch(
    ray: Any, actors: List[Any], shards: List[Shard], output_dir: str, progress: Progress
) -> List[ShardResult]:
    """Keep every actor busy with one shard until all are done; survive dead actors."""
    queue = list(reversed(shards))
    running: Dict[Any, Tuple[Any, Shard]] = {}
    idle = list(actors)
    results: List[ShardResult] = []
    while queue or running:
        while idle and queue:
            actor, shard = idle.pop(), queue.pop()
            running[actor.run.remote(shard, output_dir)] = (actor, shard)
        if not running:  # every actor died: the remaining shards fail
            for shard in reversed(queue):
                result = ShardResult(shard.name, shard.source, error="no Ray worker left")
                results.append(result)
                progress.shard_done(result)
            break
        [ref], _ = ray.wait(list(running), num_returns=1)
        actor, shard = running.pop(ref)
        try:
            result = ray.get(ref)
            idle.append(actor)
        except ray.exceptions.RayError as err:  # the actor died (killed, out of memory, ...)
            result = ShardResult(shard.name, shard.source, error=f"Ray worker lost: {_cause(err)}")
        results.append(result)
        progress.shard_done(result)
    return results


def _check_capacity(ray: Any, settings: AnnotateSettings) -> None:
    resources = ray.cluster_resources()
    if resources.get("CPU", 0) < settings.n_process:
        raise ValueError(
            f"--n-process {settings.n_process} Ray workers need {settings.n_process} CPUs; "
            f"the cluster has {resources.get('CPU', 0):g}"
        )
    if settings.gpu_id >= 0 and resources.get("GPU", 0) < settings.n_process:
        raise ValueError(
            f"--gpu-id with {settings.n_process} Ray workers needs {settings.n_process} GPUs; "
            f"the cluster has {resources.get('GPU', 0):g}"
        )


def _cause(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[-1] if text else type(err).__name__
