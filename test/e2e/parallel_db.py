#!/usr/bin/env python3
"""-j N with -p and no files: every CUDA file of the database linted in
parallel child processes, output grouped per file in database order, the
same for every N.

  parallel_db.py --tool build/bin/cuda-lambda-tidy
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report
from diagnostics import findings as diagnostics_found  # noqa: E402

HERE = Path(__file__).resolve().parent
FIXTURE = HERE.parent / "data" / "both-passes" / "split.cu"
CUDA_PATH = os.environ.get("CUDA_PATH") or "/usr/local/cuda"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    tool = parser.parse_args().tool
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "build").mkdir()
        # Database order is not name order: z first.
        names = ["z.cu", "a.cu", "m.cu"]
        for name in names:
            shutil.copy(FIXTURE, root / name)
        (root / "host.cpp").write_text("int f() { return 1; }\n")
        nvcc = f"{CUDA_PATH}/bin/nvcc"
        db = [{"directory": str(root / "build"),
               "command": f"{nvcc} -std=c++17 --extended-lambda -arch=sm_80 -c {root / n} -o {n}.o",
               "file": str(root / n)} for n in names]
        db.append({"directory": str(root / "build"),
                   "command": f"g++ -c {root / 'host.cpp'} -o host.o",
                   "file": str(root / "host.cpp")})
        (root / "build" / "compile_commands.json").write_text(json.dumps(db))

        def lint(*extra):
            return subprocess.run([tool, "--checks=-*,cuda-*", "-p", str(root / "build"), *extra],
                                  capture_output=True, text=True, timeout=600)

        outputs = {}
        for jobs in ("1", "3"):
            result = lint("-j", jobs)
            check(result.returncode == 0, f"-j {jobs} exited {result.returncode}: {result.stderr}")
            outputs[jobs] = result.stdout
            found = [(Path(m["file"]).name, int(m["line"]))
                     for m in diagnostics_found(result.stdout)]
            want = [(n, line) for n in names for line in (8, 15)]
            check(found == want, f"-j {jobs}: grouped per file in database order "
                                 f"expected {want}, got {found}")
        check(outputs["1"] == outputs["3"], "-j 1 and -j 3 printed different output")
        serial = lint()
        check(sorted(serial.stdout.splitlines()) == sorted(outputs["1"].splitlines()),
              "-j finds what a run without -j finds")
        bad = lint("-j", "0")
        check(bad.returncode == 2, f"-j 0 exited {bad.returncode}")

    return report("parallel database")


if __name__ == "__main__":
    sys.exit(main())
