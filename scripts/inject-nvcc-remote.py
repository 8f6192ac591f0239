#!/usr/bin/env python3
"""nvcc's verdicts on the mutants of an inject-hazards.py run, compiled on
another machine with the same CUDA toolkit (issue 29.1). A mutant costs one
nvcc compile of a real project's file (half a minute to three minutes on the
2-core machine); a machine with more cores compiles them all at once.

  inject-nvcc-remote.py pack --results OUT/results.json --bundle DIR
        [--root /work/realcode] [--projects FILE] [--skip-cache FILE]...
  (on the other machine, as root, from the bundle's directory)
  python3 DIR/run.py RESULT.json [-j N] [--deadline SECONDS]
  inject-nvcc-remote.py unpack --results OUT/results.json --verdicts RESULT.json[,RESULT2.json]
        [--cache FILE]

pack regenerates every mutant of the run (the same text the run linted:
inject-hazards.py's make_mutant on the unmodified file, which must not have
changed) with its nvcc command (inject-hazards.py's nvcc_command), leaves
out those whose verdict a --skip-cache already holds, and writes to DIR:
jobs.json (key, mutant path, text, command, directory, expected verdict),
tree.tar.gz (the projects' files under 2 MB, data and binaries left out, by
their absolute paths under ROOT: the include closure without preprocessing
anything) and run.py. run.py unpacks the tree at /, writes each mutant next
to its original, runs the commands N at a time (default: the cores), and
writes RESULT.json (NO_EXTRACT=1 runs it where the trees already are; no
compile starts after --deadline; a second call with
the first's RESULT.json copied into DIR as done-1.json runs the rest): key -> verdict ("compiles", "rejected", or null with a
reason when the compile could not be judged: a timeout, or a file the
bundle lacks). unpack prints the table framework x kind (nvcc as expected /
judged) and adds the verdicts to --cache (inject-hazards.py's nvcc cache
format, so that a later run with --nvcc-files reads them).
"""
import argparse
import importlib.util
import io
import json
import os
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("inject_hazards", HERE / "inject-hazards.py")
ih = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ih)

# Every file of the projects' trees goes, but data and binaries (headers
# come with any name: Kokkos' desul includes `*.inc_isglobal`).
SKIP_EXTENSIONS = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".pdf", ".mtx",
                   ".gz", ".tgz", ".zip", ".bz2", ".xz", ".tar", ".o", ".a",
                   ".so", ".bin", ".dat", ".npy", ".pyc", ".ppm", ".vtk", ".h5",
                   ".plt", ".ttf", ".ico", ".pptx", ".ipynb"}

RUNNER = r'''#!/usr/bin/env python3
"""Runs the nvcc commands of jobs.json (inject-nvcc-remote.py pack)."""
import concurrent.futures, json, os, re, subprocess, sys, tarfile, tempfile, time
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
opts = dict(zip(sys.argv[2::2], sys.argv[3::2]))
jobs_n = int(opts.get("-j", os.cpu_count()))
# No compile starts after this many seconds: what finished comes back.
deadline = time.time() + float(opts.get("--deadline", 1e9))
# NO_EXTRACT=1: the trees are already there (this machine).
if os.environ.get("NO_EXTRACT") != "1":
    with tarfile.open(os.path.join(here, "tree.tar.gz")) as t:
        t.extractall("/")
jobs = json.load(open(os.path.join(here, "jobs.json")))
# Keys judged by an earlier call (a results file copied into the bundle).
done = {}
for name in sorted(os.listdir(here)):
    if name.startswith("done") and name.endswith(".json"):
        done.update(json.load(open(os.path.join(here, name))))
jobs = [j for j in jobs if j["key"] not in done or done[j["key"]].get("verdict") is None]
print(f"{len(jobs)} compiles to run, {jobs_n} at a time", flush=True)
def run(job):
    if time.time() > deadline:
        return job["key"], None
    with open(job["mutant"], "w") as f:
        f.write(job["text"])
    obj = tempfile.mkdtemp(prefix="nvcc-")
    cmd = [c.replace("OBJ", obj) if c.startswith("OBJ") else c for c in job["command"]]
    start = time.time()
    try:
        p = subprocess.run(cmd, cwd=job["directory"], capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return job["key"], dict(verdict=None, why="timeout")
    finally:
        try:
            os.unlink(job["mutant"])
        except OSError:
            pass
    text = p.stdout + p.stderr
    errs = [l.strip() for l in text.splitlines() if re.search(r"\berror\b", l)]
    missing = [e for e in errs if "No such file or directory" in e or "cannot open source file" in e]
    res = dict(verdict="compiles" if p.returncode == 0 else "rejected", rc=p.returncode,
               wall_s=round(time.time() - start, 1), first_error=(errs[0][:300] if errs else ""))
    if missing and p.returncode != 0:
        res = dict(verdict=None, why="missing file: " + missing[0][:300])
    return job["key"], res
results = {}
with concurrent.futures.ThreadPoolExecutor(jobs_n) as ex:
    for key, res in ex.map(run, jobs):
        if res is None:
            continue
        results[key] = res
        json.dump(results, open(out, "w"), indent=1)
        print(key[:12], res.get("verdict"), res.get("wall_s", res.get("why")), flush=True)
print(f"{len(results)} compiles")
'''


def mutants_of(results_path, root, projects_file):
    data = json.loads(Path(results_path).read_text())
    projects = {p["name"]: p for p in ih.load_projects(projects_file, root, set())}
    entries = {}
    for m in data["mutants"]:
        p = projects[m["project"]]
        f = os.path.join(p["src"], m["file"])
        if f not in entries:
            db = json.loads((Path(p["build"]) / "compile_commands.json").read_text())
            entries[f] = next(e for e in db if ih.abs_file(e) == f)
        entry = entries[f]
        text, _, _ = ih.make_mutant(Path(f).read_text(errors="replace"), m["kind"],
                                    ih.IDIOMS[m["idiom"]])
        mpath = ih.mutant_path(f, m["kind"])
        cmd = ih.nvcc_command(entry, mpath, "OBJ")
        key = ih.NvccCache.key(None, text, cmd)
        yield m, p, f, entry, mpath, text, cmd, key


def pack(args):
    skip = {}
    for c in args.skip_cache:
        skip.update(json.loads(Path(c).read_text()))
    bundle = Path(args.bundle)
    bundle.mkdir(parents=True, exist_ok=True)
    jobs, roots, skipped = [], set(), 0
    for m, p, f, entry, mpath, text, cmd, key in mutants_of(args.results, args.root, args.projects):
        roots.add(os.path.dirname(p["src"].rstrip("/")))
        if key in skip:
            skipped += 1
            continue
        jobs.append(dict(key=key, project=m["project"], file=m["file"], kind=m["kind"],
                         mutant=mpath, text=text, command=cmd,
                         directory=entry["directory"], expected=m["nvcc_expected"]))
    (bundle / "jobs.json").write_text(json.dumps(jobs, indent=1))
    (bundle / "run.py").write_text(RUNNER)
    n = 0
    with tarfile.open(bundle / "tree.tar.gz", "w:gz", compresslevel=6) as tar:
        for r in sorted(roots):
            for dirpath, dirnames, filenames in os.walk(r):
                dirnames[:] = [d for d in dirnames if d != ".git"]
                for name in filenames:
                    path = os.path.join(dirpath, name)
                    if (os.path.splitext(name)[1].lower() not in SKIP_EXTENSIONS and
                            os.path.isfile(path) and not os.path.islink(path) and
                            os.path.getsize(path) < 2_000_000):
                        tar.add(path, arcname=path.lstrip("/"))
                        n += 1
    size = (bundle / "tree.tar.gz").stat().st_size / 2**20
    print(f"{len(jobs)} compiles ({skipped} already in the caches), {n} tree files, "
          f"tree.tar.gz {size:.1f} MiB")


def unpack(args):
    verdicts = {}
    for path in args.verdicts.split(","):
        verdicts.update({k: v for k, v in json.loads(Path(path).read_text()).items()
                         if k not in verdicts or verdicts[k].get("verdict") is None})
    cache = ih.NvccCache(args.cache) if args.cache else None
    table, judged, unjudged = {}, 0, []
    for m, p, f, entry, mpath, text, cmd, key in mutants_of(args.results, args.root, args.projects):
        v = verdicts.get(key)
        if v is None:
            continue
        if v.get("verdict") is None:
            unjudged.append(f"{m['project']} {m['file']} {m['kind']}: {v.get('why')}")
            continue
        judged += 1
        cell = table.setdefault((m["kind"], m["project"]), [0, 0, []])
        cell[1] += 1
        if v["verdict"] == m["nvcc_expected"]:
            cell[0] += 1
        else:
            cell[2].append(f"{m['file']}: {v['verdict']} (expected {m['nvcc_expected']}): {v['first_error'][:200]}")
        if cache:
            cache.put(key, dict(verdict=v["verdict"], rc=v["rc"], wall_s=v["wall_s"],
                                first_error=v["first_error"]))
    projects = list(dict.fromkeys(p for _, p in table))
    kinds = list(dict.fromkeys(k for k, _ in table))
    print("| kind | " + " | ".join(projects) + " |")
    print("|---|" + "---|" * len(projects))
    for k in kinds:
        cells = [f"{table[(k, p)][0]}/{table[(k, p)][1]}" if (k, p) in table else "—" for p in projects]
        print(f"| {k} | " + " | ".join(cells) + " |")
    ok = sum(c[0] for c in table.values())
    print(f"\n{ok} of {judged} verdicts as expected; {len(unjudged)} not judged")
    for (k, p), c in table.items():
        for line in c[2]:
            print(f"- not as expected: {p} {k} {line}")
    for line in unjudged:
        print(f"- not judged: {line}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("pack", "unpack"):
        s = sub.add_parser(name)
        s.add_argument("--results", required=True)
        s.add_argument("--root", default="/work/realcode")
        s.add_argument("--projects", default=str(HERE / "real-code-projects.json"))
        if name == "pack":
            s.add_argument("--bundle", required=True)
            s.add_argument("--skip-cache", action="append", default=[])
        else:
            s.add_argument("--verdicts", required=True)
            s.add_argument("--cache")
    args = ap.parse_args()
    pack(args) if args.cmd == "pack" else unpack(args)


if __name__ == "__main__":
    main()
