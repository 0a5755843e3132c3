"""The web app's upload folders: one per process, removed when it ends, and what a
process killed outright left removed by the next one."""

from __future__ import annotations

import os
import subprocess
import sys

from maieutic.web.work import sweep_left_behind


def test_a_process_that_ends_leaves_no_upload_folder(tmp_path):
    script = (
        "from maieutic.web.work import Workspace\n"
        "first, second = Workspace(), Workspace()\n"
        "(first.dir / 'essay.txt').write_text('kept until the process ends')\n"
        "second.remove()\n"
        "assert first.dir.parent == second.dir.parent\n"  # one root per process
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", script], env=env, check=True)
    assert list(tmp_path.iterdir()) == []


def test_the_folders_of_processes_gone_are_swept_and_no_other(tmp_path):
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead = tmp_path / f"maieutic-web-{gone.pid}-abc"
    alive = tmp_path / f"maieutic-web-{os.getpid()}-def"
    other = tmp_path / "maieutic-web-oldstyle"
    for folder in (dead, alive, other):
        (folder / "upload-1").mkdir(parents=True)
    assert sweep_left_behind(tmp_path) == [dead]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, other.name])
