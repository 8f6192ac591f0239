#!/usr/bin/env python3
"""The parent's children are forked from it (tool/ChildProcess.h), not the
binary started again. This test holds the two ways to the same output and
checks a forked child that dies by a signal:

  - the default and CUDA_LAMBDA_TIDY_EXEC_CHILDREN=1 print the same
    (stdout, stderr, exit status, exported fixes): both passes in text,
    SARIF, and a -j 2 lint of a compile database;
  - a host pass killed by SIGTERM the moment it appears is reported as a
    failed child, and the device pass's findings, which the parent has kept
    in its own temporary files, are still printed. A forked child inherits
    the parent's list of files to remove on a signal; unless it lets go of
    them before any signal reaches it, LLVM's signal handler in the dying
    child removes the device pass's output. (With the child letting go only
    after fork() returned, a signal sent at once lost the output in 3 of 6
    runs on a loaded machine.)

  forked_children.py --tool build/bin/cuda-lambda-tidy
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report, run  # noqa: E402
from diagnostics import findings as diagnostics_found  # noqa: E402

HERE = Path(__file__).resolve().parent
SPLIT = HERE.parent / "data" / "both-passes" / "split.cu"
CHECKS = "--checks=-*,cuda-*"


def environment(**extra):
    env = dict(os.environ)
    env.pop("CUDA_LAMBDA_TIDY_EXEC_CHILDREN", None)
    env["CUDA_LAMBDA_TIDY_NO_CACHE"] = "1"
    env.update(extra)
    return env


FORKED = environment()
STARTED = environment(CUDA_LAMBDA_TIDY_EXEC_CHILDREN="1")


def findings(output):
    return [(Path(m["file"]).name, int(m["line"]), int(m["col"]))
            for m in diagnostics_found(output)]


def same_both_ways(name, cmd, cwd=None, files=()):
    """Runs cmd forked and started; the output and the files must agree."""
    results = []
    for env in (FORKED, STARTED):
        for f in files:
            Path(f).unlink(missing_ok=True)
        proc = run(cmd, env=env, cwd=cwd)
        written = [Path(f).read_text() if Path(f).exists() else None
                   for f in files]
        results.append((proc.returncode, proc.stdout, proc.stderr, written))
    forked, started = results
    check(forked == started,
          f"{name}: forked children and started ones differ:\n"
          f"forked:  {forked}\nstarted: {started}")
    return forked


def children_of(pid):
    """The process ids whose parent is pid (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses.
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def kill_second_child(cmd, env):
    """Runs cmd and sends SIGTERM to the second child it starts (the host
    pass, started once the device pass has ended) as soon as it is seen:
    no pause between looks, so the signal often comes right after fork().
    Returns the finished process and whether a second child was seen and
    signalled."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seen = []
    killed = False
    deadline = time.monotonic() + 240
    while proc.poll() is None and time.monotonic() < deadline:
        for child in children_of(proc.pid):
            if child not in seen:
                seen.append(child)
        if len(seen) >= 2 and not killed:
            try:
                os.kill(seen[1], signal.SIGTERM)
                killed = True
            except ProcessLookupError:
                pass
        time.sleep(0 if not killed else 0.01)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err), killed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    tool = parser.parse_args().tool

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        fixes = tmp / "fixes.yaml"
        rc, out, _, _ = same_both_ways(
            "both passes, text", [tool, CHECKS, f"--export-fixes={fixes}",
                                  str(SPLIT)], files=[fixes])
        check(findings(out) == [("split.cu", 8, 18), ("split.cu", 15, 16)],
              f"both passes reported {findings(out)}:\n{out}")
        rc, out, _, _ = same_both_ways(
            "both passes, SARIF", [tool, CHECKS, "--format=sarif", str(SPLIT)])
        check(rc == 0 and len(json.loads(out)["runs"][0]["results"]) == 2,
              f"the SARIF log should hold two results (exit {rc}):\n{out}")

        # -j 2 over a compile database of two files.
        project = tmp / "project"
        project.mkdir()
        entries = []
        for name in ("a.cu", "b.cu"):
            (project / name).write_text(SPLIT.read_text())
            entries.append({"directory": str(project), "file": name,
                            "command": f"nvcc -std=c++17 --extended-lambda -c {name} -o {name}.o"})
        (project / "compile_commands.json").write_text(json.dumps(entries))
        rc, out, _, _ = same_both_ways(
            "-j 2 over a database", [tool, CHECKS, "-p", str(project), "-j", "2",
                                     str(project / "a.cu"), str(project / "b.cu")])
        check(len(findings(out)) == 4,
              f"-j 2 should report two findings per file (exit {rc}):\n{out}")

        # A host pass killed by a signal: long enough to be caught running
        # (cub's headers), the device pass's finding printed all the same.
        slow = tmp / "slow.cu"
        slow.write_text("#include <cub/cub.cuh>\n" + SPLIT.read_text())
        device_finding = ("slow.cu", 9, 18)
        for label, env in (("forked", FORKED), ("started", STARTED)):
            proc, killed = kill_second_child(
                [tool, CHECKS, "--cuda-pass=both", str(slow)], env)
            check(killed, f"{label}: no host pass was seen to signal "
                          f"(exit {proc.returncode}):\n{proc.stderr}")
            check(proc.returncode != 0,
                  f"{label}: a killed host pass should fail the run")
            check("a child pass failed" in proc.stderr,
                  f"{label}: the killed child is not reported:\n{proc.stderr}")
            check(device_finding in findings(proc.stdout),
                  f"{label}: the device pass's finding is lost after the host "
                  f"pass was killed:\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
    return report("forked children")


if __name__ == "__main__":
    sys.exit(main())
