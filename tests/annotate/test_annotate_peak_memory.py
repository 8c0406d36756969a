"""annotate's peak memory is its own: a process started (fork, then exec) from a large
process does not report that process's peak, as `ru_maxrss` would."""

import subprocess
import sys
import textwrap

import pytest

from spacy_senna.annotate.results import own_peak_rss_mib, peak_rss_mib

LARGE_PARENT = textwrap.dedent(
    """
    import os, sys
    import numpy
    held = numpy.ones(150_000_000)  # 1,144 MiB, every page touched
    os.execv(sys.executable, [sys.executable, "-c",
        "from spacy_senna.annotate.results import peak_rss_mib; print(peak_rss_mib())"])
    """
)


@pytest.mark.skipif(own_peak_rss_mib() is None, reason="no /proc/self/status (not Linux)")
def test_a_command_started_from_a_large_process_reports_its_own_peak():
    out = subprocess.run(
        [sys.executable, "-c", LARGE_PARENT], capture_output=True, text=True, check=True
    )
    assert 0 < float(out.stdout.strip()) < 900


def test_peak_memory_is_positive_and_unreadable_status_falls_back(tmp_path):
    assert peak_rss_mib() > 0
    assert own_peak_rss_mib(str(tmp_path / "missing")) is None
    broken = tmp_path / "status"
    broken.write_text("VmHWM:\n")
    assert own_peak_rss_mib(str(broken)) is None
