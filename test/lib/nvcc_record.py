"""nvcc's verdicts on fixtures and GPU programs, recorded (NvccRecord) so a
run compiles only what changed."""

import hashlib
import json
import os
import subprocess
import threading
from pathlib import Path

from cuda_setup import CUDA_PATH, NVCC_FLAGS


def run(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          timeout=300)


class NvccRecord:
    """nvcc's results on the fixtures, kept in a committed JSON file so that
    a run pays only for what changed: each result is keyed by the SHA-256 of
    nvcc's --version, its flags (less the file names), the source and the
    fixture directory's *.cuh headers. A key that is not in the record is
    compiled now (and written back with --update-nvcc-record); the verdict is
    always judged again from the recorded output, never taken from the file.
    """

    def __init__(self, path):
        self.path = Path(path) if path else None
        self.entries = {}
        if self.path and self.path.exists():
            self.entries = json.loads(self.path.read_text())["results"]
        self.version = None
        self.lock = threading.Lock()
        self.reused = self.compiled = 0
        self.new = {}

    def nvcc_version(self):
        with self.lock:
            if self.version is None:
                self.version = run([f"{CUDA_PATH}/bin/nvcc", "--version"]).stdout
            return self.version

    def key(self, cmd, source: Path, headers_dir: Path):
        digest = hashlib.sha256()
        digest.update(self.nvcc_version().encode())
        flags = [c for c in cmd[1:] if c not in (str(source), os.devnull)]
        digest.update(("\0".join(flags) + "\0").encode())
        digest.update(source.read_bytes())
        for header in sorted(headers_dir.glob("*.cuh")):
            digest.update(header.name.encode() + b"\0" + header.read_bytes())
        return digest.hexdigest()

    def compile(self, cmd, source: Path, headers_dir: Path, cwd):
        """(returncode, output) of nvcc's \p cmd on \p source."""
        key = self.key(cmd, source, headers_dir) if self.path else None
        with self.lock:
            known = self.entries.get(key) if key else None
            if known:
                self.reused += 1
                return known["returncode"], known["output"]
        result = run(cmd, cwd=cwd)
        output = result.stdout + result.stderr
        if key and len(output) > 6000:
            # nvcc's messages are its "error"/"warning" lines (an NVCC
            # verdict names one); the instantiation backtraces between them
            # are left out, the end kept for context.
            lines = [line for line in output.splitlines()
                     if "error" in line or "warning" in line]
            output = "\n".join(dict.fromkeys(lines)) + "\n...\n" + output[-2000:]
        # Paths of temporary copies differ from run to run: kept out.
        output = output.replace(str(cwd), "<tmp>") if cwd else output
        with self.lock:
            self.compiled += 1
            if key:
                self.new[key] = {"returncode": result.returncode,
                                 "output": output}
        return result.returncode, output

    def save(self):
        merged = dict(self.entries)
        merged.update(self.new)
        self.path.write_text(json.dumps(
            {"about": "nvcc results on the fixtures, by test/e2e/run_fixtures.py "
                      "(--update-nvcc-record); see its NvccRecord",
             "results": dict(sorted(merged.items()))}, indent=1) + "\n")


def nvcc_command(fixture, source: Path):
    """nvcc's command for \\p source: the runner's flags less the fixture's
    NVCC-FLAGS-REMOVE, then its NVCC-ARGS."""
    flags = [f for f in NVCC_FLAGS if f not in fixture.nvcc_remove]
    return [f"{CUDA_PATH}/bin/nvcc", *flags, *fixture.nvcc_args, str(source),
            "-o", os.devnull]


