#!/usr/bin/env python3
"""The pre-commit hook end to end, driven by the real `pre-commit` tool
(Debian's package; scripts/install-deps.sh installs it), offline:

  pre_commit_e2e.py --tool build/bin/cuda-lambda-tidy

1. A hook repository: a fresh git repository holding this checkout's
   .pre-commit-hooks.yaml, committed; its sha is the `rev`, as the docs say
   (`repo:` a path, so pre-commit clones it without a network).
2. A project: a git repository with build/compile_commands.json holding an
   nvcc command for src/scale.cu, no .clang-tidy (the hook must enable the
   cuda-* checks by itself), and .pre-commit-config.yaml as documented;
   `pre-commit install`.
3. `git commit` of scale.cu whose `[=]` lambda captures `this` (nvcc compiles
   it silently): blocked, the finding printed, no `--help`, no "no checks
   enabled".
4. The fix (`[=, *this]`): the commit passes.

Fails (never skips) when pre-commit or git is missing.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import THIS_CAPTURE, check, fail, report

ROOT = Path(__file__).resolve().parents[2]
CUDA_PATH = os.environ.get("CUDA_PATH") or "/usr/local/cuda"

HAZARD = THIS_CAPTURE
FIXED = HAZARD.replace("[=] __device__", "[=, *this] __device__")


def git(repo, *args, env):
    return subprocess.run(["git", "-C", str(repo), *args], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    tool = Path(parser.parse_args().tool).resolve()
    for program in ("pre-commit", "git"):
        if not shutil.which(program):
            fail(f"{program} is not installed (bash scripts/install-deps.sh)")
    start = time.monotonic()

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = dict(os.environ,
                   PATH=f"{tool.parent}{os.pathsep}{os.environ['PATH']}",
                   HOME=str(tmp / "home"),
                   PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
                   GIT_CONFIG_NOSYSTEM="1",
                   GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                   GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
        env.pop("GIT_DIR", None)
        env.pop("GIT_WORK_TREE", None)
        (tmp / "home").mkdir()

        hooks = tmp / "hooks"
        hooks.mkdir()
        shutil.copy(ROOT / ".pre-commit-hooks.yaml", hooks)
        for args in (("init", "-q"), ("add", "."), ("commit", "-q", "-m", "hooks")):
            result = git(hooks, *args, env=env)
            if result.returncode != 0:
                fail(f"git {' '.join(args)} in the hook repository", result.stdout)
        rev = git(hooks, "rev-parse", "HEAD", env=env).stdout.strip()

        project = tmp / "project"
        (project / "src").mkdir(parents=True)
        (project / "build").mkdir()
        (project / "src" / "scale.cu").write_text(HAZARD)
        db = [{"directory": str(project / "build"),
               "command": f"{CUDA_PATH}/bin/nvcc -forward-unknown-to-host-compiler "
                          f"-std=c++17 --extended-lambda "
                          f"--generate-code=arch=compute_80,code=[compute_80,sm_80] "
                          f"-c {project}/src/scale.cu -o scale.cu.o",
               "file": str(project / "src" / "scale.cu")}]
        (project / "build" / "compile_commands.json").write_text(json.dumps(db))
        (project / ".gitignore").write_text("build/\n")
        (project / ".pre-commit-config.yaml").write_text(
            f"repos:\n"
            f"  - repo: {hooks}\n"
            f"    rev: {rev}\n"
            f"    hooks:\n"
            f"      - id: cuda-lambda-tidy\n")
        result = git(project, "init", "-q", env=env)
        if result.returncode != 0:
            fail("git init", result.stdout)
        result = subprocess.run(["pre-commit", "install"], cwd=project, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, timeout=120)
        if result.returncode != 0:
            fail("pre-commit install", result.stdout)

        git(project, "add", ".", env=env)
        blocked = git(project, "commit", "-m", "scale", env=env)
        out = blocked.stdout
        check(blocked.returncode != 0, f"the commit of the hazard went through:\n{out}")
        check("scale.cu:13:35:" in out and "[cuda-lambda-this-capture" in out,
              f"the finding is not printed:\n{out}")
        check("no checks enabled" not in out and "USAGE:" not in out,
              f"the hook printed clang-tidy's help:\n{out}")
        check(git(project, "rev-parse", "-q", "--verify", "HEAD", env=env).returncode != 0,
              "a commit exists after the blocked one")

        (project / "src" / "scale.cu").write_text(FIXED)
        git(project, "add", ".", env=env)
        passed = git(project, "commit", "-m", "scale, fixed", env=env)
        check(passed.returncode == 0, f"the fixed file was blocked:\n{passed.stdout}")
        check("cuda-lambda-tidy" in passed.stdout and "Passed" in passed.stdout,
              f"the hook did not run on the fixed file:\n{passed.stdout}")

    print(f"pre-commit end to end: {time.monotonic() - start:.1f} s")
    return report("pre-commit end to end")


if __name__ == "__main__":
    sys.exit(main())
