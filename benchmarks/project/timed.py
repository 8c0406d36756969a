"""Run one benchmark step's command and record its wall time.

usage: python benchmarks/project/timed.py TIMINGS.json STEP -- COMMAND [ARG ...]

Runs COMMAND (output streams through, so progress bars stay visible), then records
{step: {"command", "seconds", "peak_rss_mib", "finished", "returncode"}} in TIMINGS.json (created if
missing; a re-run of a step replaces its entry). peak_rss_mib is the largest resident set
of COMMAND or any process it waited for (ru_maxrss; COMMAND is forked from this small
process, so its figure is COMMAND's own, not a large parent's). Exits with COMMAND's return code.
"""

import json
import resource
import shlex
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path


def main() -> None:
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__)
    timings_path, step, command = Path(sys.argv[1]), sys.argv[2], sys.argv[4:]
    start = time.perf_counter()
    returncode = subprocess.call(command)
    seconds = time.perf_counter() - start
    peak_rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    timings = json.loads(timings_path.read_text()) if timings_path.exists() else {}
    timings[step] = {
        "command": shlex.join(command),
        "seconds": round(seconds, 1),
        "peak_rss_mib": round(peak_rss_mib),
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "returncode": returncode,
    }
    timings_path.parent.mkdir(parents=True, exist_ok=True)
    timings_path.write_text(json.dumps(timings, indent=2), encoding="utf8")
    print(
        f"[timed] {step}: {seconds / 60:.1f} min, peak RSS {peak_rss_mib:,.0f} MiB "
        f"(exit {returncode})",
        file=sys.stderr,
    )
    sys.exit(returncode)


if __name__ == "__main__":
    main()
