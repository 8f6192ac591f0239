#!/usr/bin/env python3
"""Issue 15, CI at scale: --shard=I/N over a compile database and
--merge-sarif, and the results cache.

  shards_cache.py --tool build/bin/cuda-lambda-tidy

Shards: the shards of a database partition its CUDA files (union all of
them, no file in two), split as docs/integration.md documents (64-bit FNV-1a
of the path relative to the database's directory, modulo N), and their
SARIF logs, merged, validate against the SARIF 2.1.0 schema and hold the
same results and rules as the unsharded run's log.

Results cache (a temporary --cache-dir): a second run over an unchanged
database hits for every pass, starts no child process (the parent looks each
pass up first), and prints the same output and exit status (also
when the database is copied to another directory, as the compiler launcher
writes one per compile); a
changed header misses for the file that includes it (and only for it); a
changed .clang-tidy misses; --no-cache prints the same findings.
"""

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report, run
from output_formats import schema_validator, validate

HERE = Path(__file__).resolve().parent
FIXTURE = HERE.parent / "data" / "both-passes" / "split.cu"
CUDA_PATH = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
CACHE_LINE = re.compile(r"^cuda-lambda-tidy: results cache (\w+): (.+) \((\w+)\)$", re.M)
CHILDREN_LINE = re.compile(r"^cuda-lambda-tidy: (\d+) of \d+ passes linted in a child process$", re.M)


def fnv1a64(text):
    value = 0xcbf29ce484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return value


def shard_of(path, base, count):
    """The documented split: 1-based shard of a file."""
    return fnv1a64(os.path.relpath(path, base).replace(os.sep, "/")) % count + 1


def result_files(log):
    files = set()
    for result in log["runs"][0]["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        files.add(Path(uri.removeprefix("file://")).name)
    return files


def canonical_results(log):
    results = []
    for result in log["runs"][0]["results"]:
        result = dict(result)
        result.pop("ruleIndex", None)
        results.append(json.dumps(result, sort_keys=True))
    return sorted(results)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    tool = parser.parse_args().tool
    validator = schema_validator()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build = root / "build"
        build.mkdir()
        (root / "sub").mkdir()
        # Split over 3 shards: {f}, {a, c, d}, {b}; shard 1 of 8 is empty.
        names = ["a.cu", "b.cu", "sub/c.cu", "sub/d.cu", "f.cu"]
        header = root / "sub" / "inc.cuh"
        header.write_text("inline int helper() { return 2; }\n")
        for name in names:
            text = FIXTURE.read_text()
            if name == "a.cu":  # line numbers unchanged: the include replaces a comment line
                text = text.replace("// One hazard", '#include "sub/inc.cuh" // One hazard', 1)
            (root / name).write_text(text)
        nvcc = f"{CUDA_PATH}/bin/nvcc"
        db = [{"directory": str(build),
               "command": f"{nvcc} -std=c++17 --extended-lambda -arch=sm_80 -I{root} -c {root / n} -o x.o",
               "file": str(root / n)} for n in names]
        (build / "compile_commands.json").write_text(json.dumps(db))
        cache = root / "cache"
        env = dict(os.environ, CUDA_LAMBDA_TIDY_EXPLAIN_CACHE="1",
                   CUDA_LAMBDA_TIDY_EXPLAIN_PASSES="1")
        env.pop("CUDA_LAMBDA_TIDY_NO_CACHE", None)

        def lint(*extra):
            return run([tool, "--checks=-*,cuda-*", "-p", str(build), *extra], env=env, timeout=900)

        def cached(*extra):
            result = lint(f"--cache-dir={cache}", *extra)
            events = {}
            for what, path, cuda_pass in CACHE_LINE.findall(result.stderr):
                events.setdefault(Path(path).name, set()).add(what)
            return result, events

        # The first run through the results cache (every pass misses) is
        # also the unsharded log the shards are compared with.
        whole, events1 = cached("--format=sarif")
        check(whole.returncode == 0, f"unsharded run exited {whole.returncode}: {whole.stderr}")
        check(set(events1) == {Path(n).name for n in names} and
              all(e == {"miss"} for e in events1.values()),
              f"first run: every pass misses, got {events1}")
        whole_log = json.loads(whole.stdout)
        validate(validator, whole_log, "the unsharded log")
        check(result_files(whole_log) == {Path(n).name for n in names},
              f"unsharded run: findings in {sorted(result_files(whole_log))}")

        # --- shards (without the cache: a shard's files in one child) ------
        count = 3
        logs, seen = [], []
        for index in range(1, count + 1):
            part = lint("--no-cache", "--format=sarif", f"--shard={index}/{count}")
            check(part.returncode == 0, f"shard {index}/{count} exited {part.returncode}: {part.stderr}")
            path = root / f"shard{index}.sarif"
            path.write_text(part.stdout)
            logs.append(str(path))
            log = json.loads(part.stdout)
            validate(validator, log, f"shard {index}'s log")
            files = result_files(log)
            want = {Path(n).name for n in names if shard_of(root / n, build, count) == index}
            check(files == want, f"shard {index}/{count} linted {sorted(files)}, the documented "
                                 f"split gives {sorted(want)}")
            seen.extend(files)
        check(sorted(seen) == sorted(Path(n).name for n in names),
              f"the shards do not partition the database: {sorted(seen)}")
        merged_path = root / "merged.sarif"
        merge = run([tool, "--merge-sarif", str(merged_path), *logs])
        check(merge.returncode == 0, f"--merge-sarif exited {merge.returncode}: {merge.stderr}")
        if merged_path.exists():
            merged = json.loads(merged_path.read_text())
            validate(validator, merged, "the merged log")
            check(canonical_results(merged) == canonical_results(whole_log),
                  "the merged log's results differ from the unsharded run's")
            rules = lambda log: log["runs"][0]["tool"]["driver"]["rules"]
            check(rules(merged) == rules(whole_log), "the merged log's rules differ")
            for result in merged["runs"][0]["results"]:
                check(rules(merged)[result["ruleIndex"]]["id"] == result["ruleId"],
                      f"merged ruleIndex does not point at {result['ruleId']}")
        empty = lint("--no-cache", "--format=sarif", "--shard=1/8")
        check(empty.returncode == 0, f"an empty shard exited {empty.returncode}: {empty.stderr}")
        if empty.returncode == 0:
            empty_log = json.loads(empty.stdout)
            validate(validator, empty_log, "an empty shard's log")
            check(empty_log["runs"][0]["results"] == [], "an empty shard has results")
        bad = lint("--shard=4/3")
        check(bad.returncode == 2, f"--shard=4/3 exited {bad.returncode}")

        # --- results cache -----------------------------------------------
        sarif2, events2 = cached("--format=sarif")
        check(all(e == {"hit"} for e in events2.values()) and len(events2) == len(names),
              f"unchanged database: every pass hits, got {events2}")
        # The parent looks each pass up before starting its child: a fully
        # warm run starts none (the cold run above started one per pass).
        started = lambda result: [int(n) for n in CHILDREN_LINE.findall(result.stderr)]
        check(started(whole) == [2 * len(names)] and started(sarif2) == [0],
              f"child processes started, cold then warm: {started(whole)}, "
              f"{started(sarif2)} (want {2 * len(names)}, then 0)")
        check(sarif2.stdout == whole.stdout and sarif2.returncode == whole.returncode,
              "a hit prints other output than the run that stored it:\n"
              f"{whole.stdout}\n----\n{sarif2.stdout}")
        # Text output exports no fixes: other keys, every pass misses again;
        # after the header edit below, hits and one miss print it the same.
        first, events3 = cached()
        check(first.returncode == 0 and len(events3) == len(names) and
              all(e == {"miss"} for e in events3.values()),
              f"text output (no fixes exported): every pass misses, got {events3}")
        header.write_text("inline int helper() { return 3; }\n")
        third, events4 = cached()
        check(events4.get("a.cu") == {"miss"} and
              all(events4[Path(n).name] == {"hit"} for n in names if n != "a.cu"),
              f"a changed header: a.cu (only) misses, got {events4}")
        check(third.stdout == first.stdout, "output changed after a header edit")
        # The same database in another directory, as the compiler launcher
        # writes one per compile: keyed by what it says, every pass hits.
        moved = root / "moved"
        moved.mkdir()
        shutil.copy(build / "compile_commands.json", moved)
        elsewhere = run([tool, "--checks=-*,cuda-*", "-p", str(moved), f"--cache-dir={cache}"],
                        env=env, timeout=900)
        events_moved = {}
        for what, path, cuda_pass in CACHE_LINE.findall(elsewhere.stderr):
            events_moved.setdefault(Path(path).name, set()).add(what)
        check(len(events_moved) == len(names) and
              all(e == {"hit"} for e in events_moved.values()),
              f"the database moved: every pass hits, got {events_moved}")
        check(elsewhere.stdout == third.stdout, "a moved database's hits print other output")
        (root / ".clang-tidy").write_text("Checks: '-*,cuda-*'\n")
        _, events5 = cached(str(root / "f.cu"))
        check(events5 == {"f.cu": {"miss"}},
              f"a new .clang-tidy: a miss, got {events5}")
        # Linted again without the cache, one file gives the findings its
        # cached passes gave.
        off = lint(f"--cache-dir={cache}", "--no-cache", str(root / "f.cu"))
        check(not CACHE_LINE.search(off.stderr), "--no-cache still used the cache")
        of_f = lambda out: sorted(line for line in out.splitlines()
                                  if line.startswith(str(root / "f.cu") + ":"))
        check(of_f(off.stdout) and of_f(off.stdout) == of_f(first.stdout),
              "--no-cache finds other findings:\n" + off.stdout + "\n----\n" + first.stdout)
        env["CUDA_LAMBDA_TIDY_NO_CACHE"] = "1"
        off_env = lint(f"--cache-dir={cache}", str(root / "f.cu"))
        check(not CACHE_LINE.search(off_env.stderr), "CUDA_LAMBDA_TIDY_NO_CACHE=1 still used the cache")

    return report("shards and results cache")


if __name__ == "__main__":
    sys.exit(main())
