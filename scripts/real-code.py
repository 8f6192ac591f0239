#!/usr/bin/env python3
"""Lints whole open-source CUDA projects through their own compile databases.

  real-code.py [--projects FILE] [--root DIR] [--tidy BIN]
               [--copy-tidy-from BUILT_BIN] [--out DIR]
               [-j N] [--timeout S] [--sample N] [--sample-for NAME=N]...
               [--sample-skip NAME=K]...
               [--files-matching REGEX] [--lambda-files] [--only NAME[,NAME]]
               [--triage FILE] [--extra-arg ARG]...
  real-code.py --nvcc-check N --out DIR [--only ...] [-j N]
  real-code.py --reparse --out DIR        (results from the logs again)
  real-code.py --report-only --out DIR    (reports again, e.g. new triage)
  real-code.py --count-only [--only ...]  (the device-lambda census alone)

FILE (default scripts/real-code-projects.json) lists the projects: name,
repository, commit, configure command, and where the checkout and the build
directory are under ROOT (default /work/realcode: ROOT/<name>/src and
ROOT/<name>/build unless "src"/"build" say otherwise); "variant" projects
lint another's checkout differently and are left out of the totals.
scripts/real-code-setup.sh makes all of it from fetched snapshots. With no
--sample the run is the whole measurement.

Which files: every entry of BUILD/compile_commands.json that compiles CUDA
(the compiler, after a launcher such as ccache, is nvcc or an nvcc wrapper
such as Kokkos' nvcc_wrapper; or the file is .cu; or `-x cu`), whose file is
not matched by the project's "exclude" regexes (third-party code the
project vendors: googletest, Catch2), each file once. --files-matching keeps
the files whose path matches REGEX; --lambda-files keeps the files the census
below counts (a device lambda or __managed__); --sample N keeps N of them per project,
the same N on every run (the files whose sha1 of the path relative to the
project is smallest, so a smaller sample is part of a larger one);
--sample-for NAME=N sets N for one project (0: all).

How: each file is linted alone, `BIN --checks=-*,cuda-* -p BUILD FILE`
(both passes, text output, the project's "tidy_args" and --extra-arg
added), with a timeout (the process group is killed), -j N files at a time.
Wall and CPU seconds (wait4 rusage, children included) and peak memory are
recorded.

What is counted, per file:
  parse failure  clang reported an error that is not a cuda-* finding
                 (clang-diagnostic-*, warnings made errors by -Werror
                 included), or the run timed out / crashed / exited 2.
                 The file's cause is its first error (the first with a
                 location that is not "too many errors emitted"),
                 normalised to a short key (quoted names dropped unless they
                 matter, e.g. 'max' in "no matching function for call to
                 'max'", or the flag of "unknown argument").
  nvcc-only      no such error, but [nvcc-only-syntax] warnings (exit 3):
                 counted apart, the macro is the cause.
  finding        a diagnostic whose check is cuda-* (warning or error):
                 distinct (file, line, col, check) and the total printed;
                 the declaration its "declared here" note points at is kept.
  tool notes     lines the tool itself prints (dropped nvcc flags, ...),
                 normalised and counted per project.
Per project also: how many files use device lambdas or __managed__, by a
grep of comment- and string-stripped source: a lambda introducer `[...]`,
optionally a parameter list and `mutable`, followed by __device__/__host__ or
one of the project's annotation macros, or one of its lambda macros followed
by `(` (KOKKOS_LAMBDA); counted in the file itself, and in the file or any
header it includes (#include resolved against the file's directory and the
-I/-isystem/-iquote directories of its command that lie inside the
project's trees, transitively, preprocessor conditions ignored).

--nvcc-check N compiles, with the file's own database command (nvcc,
nvcc_wrapper; the object to a temporary directory), one example of each
cause and N files with findings per project of the results in --out, and
adds nvcc's verdict to the report.

Output in --out (default real-code-out/): results.json (everything, per
file), results.md (tables per project, failures by cause with an example
each, findings grouped by message pattern with their verdicts),
findings.md (every distinct cuda-* finding: location, message, declaration,
times printed, verdict), logs/<project>/<file>.log (each run's command,
exit status, times and output). --triage FILE (default
scripts/real-code-triage.json) is JSON {"rules": [{"match": REGEX,
"project": NAME (optional), "verdict": "false alarm: why" | "true hazard:
why"}, ...]}: REGEX is searched in "<path relative to ROOT>:<line>:<col>:
<check>: <message> || declared: <declaration>", the first rule that matches
gives the verdict.

Exit status: 0 when the measurement ran (whatever it found), 2 when it could
not (no database, no tool).
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_PROJECTS = HERE / "real-code-projects.json"
DEFAULT_TIDY = "/work/realcode/bin/cuda-lambda-tidy"
CHECKS = "--checks=-*,cuda-*"

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "lib"))
from diagnostics import DIAGNOSTIC as DIAG_RE  # noqa: E402
BARE_DIAG_RE = re.compile(
    r"^(?P<sev>warning|error|fatal error): (?P<msg>.*?)"
    r"(?: \[(?P<check>[^\]\s]+)\])?$")
NVCC_NAMES = re.compile(r"^(nvcc|nvcc_wrapper|nvcc-wrapper|nvcc\.exe)$")
LAUNCHERS = {"ccache", "sccache", "distcc", "env"}


# --------------------------------------------------------------------------
# Projects and databases

def load_projects(path, root):
    data = json.loads(Path(path).read_text())
    projects = []
    for p in data["projects"]:
        p = dict(p)
        p["src"] = str(Path(root) / p.get("src", p["name"] + "/src"))
        p["build"] = str(Path(root) / p.get("build", p["name"] + "/build"))
        p["roots"] = [p["src"], p["build"]] + [
            str(Path(root) / x) for x in p.get("extra_roots", [])]
        projects.append(p)
    return projects


def entry_args(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def compiler_of(args):
    i = 0
    while i < len(args) and os.path.basename(args[i]) in LAUNCHERS:
        i += 1
        while args[i:] and "=" in args[i] and not args[i].startswith("-"):
            i += 1  # env VAR=value
    return os.path.basename(args[i]) if i < len(args) else ""


def is_cuda_entry(args, file):
    if NVCC_NAMES.match(compiler_of(args)):
        return True
    if file.endswith(".cu"):
        return True
    for i, a in enumerate(args):
        if a == "-x" and i + 1 < len(args) and args[i + 1] in ("cu", "cuda"):
            return True
        if a in ("-xcu", "-xcuda", "--x=cu", "-x=cu"):
            return True
    return False


def abs_file(entry):
    f = entry["file"]
    if not os.path.isabs(f):
        f = os.path.join(entry["directory"], f)
    return os.path.normpath(f)


def project_files(project):
    """The project's CUDA entries: [(file, args, directory)], each file once."""
    db = Path(project["build"]) / "compile_commands.json"
    entries = json.loads(db.read_text())
    excludes = [re.compile(x) for x in project.get("exclude", [])]
    seen, out = set(), []
    for e in entries:
        f = abs_file(e)
        args = entry_args(e)
        if f in seen or not is_cuda_entry(args, f):
            continue
        if any(x.search(f) for x in excludes):
            continue
        seen.add(f)
        out.append((f, args, e["directory"]))
    return out, len(entries)


def rel(project, f):
    for base in project["roots"]:
        if f.startswith(base + "/"):
            return (f[len(base) + 1:] if base == project["src"]
                    else "<build>/" + f[len(base) + 1:])
    return f


def sample(project, files, n, regex):
    if regex:
        r = re.compile(regex)
        files = [x for x in files if r.search(x[0])]
    if n:
        key = lambda x: hashlib.sha1(rel(project, x[0]).encode()).hexdigest()
        files = sorted(files, key=key)[:n]
    return files


# --------------------------------------------------------------------------
# Device-lambda census

COMMENT_RE = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)'", re.S)
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)


def lambda_regexes(project):
    annot = ["__device__", "__host__"] + project.get("annotation_macros", [])
    lam = (r"\[[^\[\]{};]*\]\s*(?:\((?:[^()]|\([^()]*\))*\)\s*)?"
           r"(?:mutable\s+)?(?:" + "|".join(map(re.escape, annot)) + r")\b")
    macros = project.get("lambda_macros", [])
    if macros:
        lam += r"|\b(?:" + "|".join(map(re.escape, macros)) + r")\s*\("
    return re.compile(lam), re.compile(r"\b__managed__\b")


class Census:
    def __init__(self, project):
        self.project = project
        self.lam_re, self.managed_re = lambda_regexes(project)
        names = project.get("lambda_macros", []) + project.get("annotation_macros", [])
        self.define_re = re.compile(
            r"^\s*#\s*define\s+(?:" + "|".join(map(re.escape, names or ["@"]))
            + r")\b(?:[^\n]*\\\n)*[^\n]*", re.M)
        self.resolved = {}  # (dirs, cur, inc) -> path or None
        self.cache = {}  # path -> (has_lambda, has_managed, includes)
        self.roots = tuple(r + "/" for r in project["roots"])

    def scan(self, path):
        if path not in self.cache:
            try:
                text = Path(path).read_text(errors="replace")
            except OSError:
                text = ""
            includes = INCLUDE_RE.findall(text)
            code = COMMENT_RE.sub(
                lambda m: " " if m.group(0)[0] in "/\"'" else m.group(0), text)
            code = self.define_re.sub(" ", code)
            self.cache[path] = (bool(self.lam_re.search(code)),
                                bool(self.managed_re.search(code)), includes)
        return self.cache[path]

    def include_dirs(self, args, directory):
        dirs = []
        i = 0
        while i < len(args):
            a = args[i]
            val = None
            for flag in ("-I", "-isystem", "-iquote", "--include-path"):
                if a == flag and i + 1 < len(args):
                    val = args[i + 1]
                    i += 1
                elif a.startswith(flag + "="):
                    val = a[len(flag) + 1:]
                elif flag == "-I" and a.startswith("-I") and len(a) > 2:
                    val = a[2:]
                elif flag == "-isystem" and a.startswith("-isystem") and len(a) > 8:
                    val = a[8:]
            if a.startswith("-Xcompiler"):  # -Xcompiler -isystem,/p or =-I/p
                pass
            if val is not None:
                for v in val.split(","):
                    v = os.path.normpath(os.path.join(directory, v))
                    if v.startswith(self.roots) or v + "/" in self.roots:
                        dirs.append(v)
            i += 1
        return dirs

    def resolve(self, dirs, cur, inc):
        key = (dirs, os.path.dirname(cur), inc)
        if key not in self.resolved:
            found = None
            for base in (os.path.dirname(cur),) + dirs:
                cand = os.path.normpath(os.path.join(base, inc))
                if cand.startswith(self.roots) and os.path.isfile(cand):
                    found = cand
                    break
            self.resolved[key] = found
        return self.resolved[key]

    def count(self, file, args, directory):
        """(direct_lambda, direct_managed, any_lambda, any_managed, via)"""
        dirs = tuple(self.include_dirs(args, directory))
        d_lam, d_man, _ = self.scan(file)
        seen, stack = {file}, [file]
        any_lam, any_man, via = d_lam, d_man, None
        while stack:
            cur = stack.pop()
            lam, man, incs = self.scan(cur)
            if lam and not any_lam:
                any_lam, via = True, cur
            if (lam and via is None and cur != file):
                via = cur
            any_man = any_man or man
            for inc in incs:
                cand = self.resolve(dirs, cur, inc)
                if cand and cand not in seen:
                    seen.add(cand)
                    stack.append(cand)
        return d_lam, d_man, any_lam, any_man, via


# --------------------------------------------------------------------------
# Running the tool

def run_one(tidy, build, file, timeout, extra, log_path):
    cmd = [tidy, CHECKS, "-p", build] + extra + [file]
    out_path = str(log_path) + ".out"
    err_path = str(log_path) + ".err"
    t0 = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        # Every file linted afresh: no results cache (issue 15), which an
        # older binary ignores.
        proc = subprocess.Popen(cmd, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL,
                                start_new_session=True,
                                env=dict(os.environ, CUDA_LAMBDA_TIDY_NO_CACHE="1"))
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    stdout = Path(out_path).read_text(errors="replace")
    stderr = Path(err_path).read_text(errors="replace")
    os.unlink(out_path)
    os.unlink(err_path)
    Path(log_path).write_text(
        "$ " + " ".join(shlex.quote(c) for c in cmd) + "\n"
        f"# exit {proc.returncode}{' (timed out)' if timed_out.is_set() else ''}"
        f", {wall:.1f} s wall, {usage.ru_utime + usage.ru_stime:.1f} s cpu,"
        f" {usage.ru_maxrss // 1024} MiB max rss\n"
        "# stdout\n" + stdout + "# stderr\n" + stderr)
    return {
        "rc": proc.returncode,
        "timed_out": timed_out.is_set(),
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "maxrss_mib": usage.ru_maxrss // 1024,
        "stdout": stdout,
        "stderr": stderr,
    }


LIMIT_MSG = "too many errors emitted, stopping now"


def cause_key(rec):
    """A short normalised key for a compiler error."""
    m = rec["msg"].strip()
    check = rec.get("check", "")
    if check.startswith("clang-diagnostic-") and check != "clang-diagnostic-error":
        return f"warning -W{check[len('clang-diagnostic-'):]} made an error by -Werror"
    if m.startswith("#error") or m.startswith('"'):
        return "#error: " + m.lstrip("#error ").strip('"')[:70]
    ua = re.match(r"^unknown argument:? '([^'=]*=?)", m)
    if ua:
        return f"unknown argument '{ua.group(1)}'"
    if re.match(r"^'([^']+)' file not found", m):
        return "file not found"
    if re.match(r"^no matching function for call to '", m):
        return m.split(" (")[0]
    if m.startswith("use of undeclared identifier"):
        return m
    m = re.sub(r"'[^']*'", "'…'", m)
    m = re.sub(r"\b\d+\b", "N", m)
    return m[:100]


_LINES = {}


def source_line(path, line):
    """The text of the declaration ending on a source line, for triage."""
    if path not in _LINES:
        try:
            _LINES[path] = Path(path).read_text(errors="replace").splitlines()
        except OSError:
            _LINES[path] = []
    lines = _LINES[path]
    if not 0 < line <= len(lines):
        return ""
    # the whole declaration when it spans lines: back to the end of the
    # previous statement (at most 4 lines)
    first = line - 1
    while first > 0 and line - first < 4:
        prev = lines[first - 1].strip()
        if not prev or prev.endswith((";", "{", "}", ":", "*/")) or prev.startswith(("#", "//")):
            break
        first -= 1
    return " ".join(l.strip() for l in lines[first:line])[:240]


def first_error(errors):
    """The error that names the cause: the first one with a location that
    is not the error limit, else the first."""
    for e in errors:
        if e["msg"] != LIMIT_MSG and (e["file"] or not errors[0]["file"]):
            return e
    for e in errors:
        if e["msg"] != LIMIT_MSG:
            return e
    return errors[0] if errors else None


def parse_run(run, project):
    """Diagnostics of one run: errors, cuda-* findings, tool notes."""
    errors, findings, notes, nvcc_only = [], [], [], []
    last = None
    lines = (run["stdout"] + "\n" + run["stderr"]).splitlines()
    for line in lines:
        m = DIAG_RE.match(line)
        b = None if m else BARE_DIAG_RE.match(line)
        if b and b["check"]:  # a diagnostic without a location (a flag)
            m = b
        if m:
            sev, check = m["sev"], (m["check"] or "").split(",")[0]
            loc = m.groupdict()
            rec = {"file": os.path.normpath(loc["file"]) if loc.get("file") else "",
                   "line": int(loc.get("line") or 0),
                   "col": int(loc.get("col") or 0), "sev": sev, "msg": m["msg"],
                   "check": check}
            if sev == "note" and findings and findings[-1] is last and \
                    "declared here" in m["msg"] and "decl" not in last:
                last["decl"] = f"{rec['file']}:{rec['line']}"
                last["decl_text"] = source_line(rec["file"], rec["line"])
                continue
            last = rec if sev != "note" else last
            if check.startswith("cuda-"):
                findings.append(rec)
            elif check == "nvcc-only-syntax":
                notes.append(f"[nvcc-only-syntax] {message_pattern(m['msg'])}")
                nvcc_only.append(rec)
            elif sev in ("error", "fatal error"):
                errors.append(rec)
            continue
        s = line.strip()
        if not s:
            continue
        if s.startswith("Error while processing") or s.startswith(
                "Found compiler error"):
            continue
        if re.match(r"^\d+ (warnings?|errors?)( and \d+ errors?)? generated", s):
            continue
        if re.match(r"^Suppressed \d+ warnings", s) or s.startswith(
                "Use -header-filter") or s.startswith("Use -system-headers"):
            continue
        if re.match(r"^\d+ warnings? treated as errors", s):
            continue
        if s.startswith("cuda-lambda-tidy") or s.startswith("error:") or \
                s.startswith("warning:") or s.startswith("clang-tidy"):
            notes.append(s)
    return errors, findings, notes, nvcc_only


def make_record(run, p, f, r, log):
    errors, findings, notes, nvcc_only = parse_run(run, p)
    status = classify(run, errors, nvcc_only)
    first = first_error(errors) or (nvcc_only[0] if nvcc_only else None)
    return {"file": f, "rel": r, "status": status, "rc": run["rc"],
            "wall_s": run["wall_s"], "cpu_s": run["cpu_s"],
            "maxrss_mib": run["maxrss_mib"],
            "first_error": first,
            "cause": ("[nvcc-only-syntax] " + first["msg"].split(":")[0][:120]
                      if status == "nvcc-only-syntax" and first
                      else cause_key(first) if first else status),
            "nvcc_only": nvcc_only,
            "error_keys": sorted({cause_key(e) for e in errors
                                  if e["msg"] != LIMIT_MSG}),
            "error_limit": any(e["msg"] == LIMIT_MSG for e in errors),
            "findings_as_errors": any(x["sev"] == "error" for x in findings),
            "errors": len(errors),
            "findings": findings, "notes": notes,
            "log": str(log)}


LOG_HEAD = re.compile(r"^# exit (-?\d+)( \(timed out\))?, ([\d.]+) s wall, "
                      r"([\d.]+) s cpu, (\d+) MiB max rss$")


def run_from_log(log):
    """A run as run_one returned it, read back from its log."""
    text = Path(log).read_text(errors="replace")
    head, _, rest = text.partition("\n# stdout\n")
    stdout, _, stderr = rest.rpartition("# stderr\n")
    m = LOG_HEAD.match(head.splitlines()[1])
    return {"rc": int(m[1]), "timed_out": bool(m[2]), "wall_s": float(m[3]),
            "cpu_s": float(m[4]), "maxrss_mib": int(m[5]),
            "stdout": stdout, "stderr": stderr}


def nvcc_check(project, file, nvcc_dir, timeout):
    """Compiles FILE with its own database command (nvcc, nvcc_wrapper, ...),
    the object written to a temporary directory: does nvcc accept it?"""
    import tempfile
    db = json.loads((Path(project["build"]) / "compile_commands.json").read_text())
    for e in db:
        if abs_file(e) == file:
            break
    else:
        return {"rc": None, "error": "not in the database"}
    args = entry_args(e)
    tmp = tempfile.mkdtemp(prefix="real-code-nvcc-")
    if "-o" in args:
        args[args.index("-o") + 1] = os.path.join(tmp, "out.o")
    else:
        args += ["-o", os.path.join(tmp, "out.o")]
    env = dict(os.environ, PATH=nvcc_dir + ":" + os.environ.get("PATH", ""))
    t0 = time.monotonic()
    try:
        r = subprocess.run(args, cwd=e["directory"], env=env, timeout=timeout,
                           capture_output=True, text=True, errors="replace",
                           start_new_session=True)
        rc, text = r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        rc, text = None, "timed out"
    subprocess.run(["rm", "-rf", tmp])
    err = next((l.strip() for l in text.splitlines() if "error" in l), "")
    return {"rc": rc, "error": err[:300], "wall_s": round(time.monotonic() - t0, 1)}


def note_key(s):
    s = re.sub(r"'/[^']*'", "'<path>'", s)
    s = re.sub(r"\S*/\S+", "<path>", s)
    return s[:160]


def classify(run, errors, nvcc_only):
    if run["timed_out"]:
        return "timeout"
    rc = run["rc"]
    if rc < 0 or rc >= 128:
        return "crash"
    if rc == 2:
        return "unusable"
    if errors:
        return "parse-failure"
    if rc == 3 or nvcc_only:
        return "nvcc-only-syntax"
    if "Error while processing" in run["stdout"] + run["stderr"]:
        return "parse-failure"
    if rc not in (0, 1):
        return "crash"
    return "ok"


# --------------------------------------------------------------------------
# Report

def fmt_s(x):
    return f"{x:.1f}"


def rel_root(path, root):
    return path[len(root) + 1:] if path.startswith(root + "/") else path


def finding_key(f, root):
    return f"{rel_root(f['file'], root)}:{f['line']}:{f['col']}:{f['check']}"


def message_pattern(msg):
    """A finding's message with the names taken out, to group findings."""
    m = re.sub(r"'[^']*'", "'…'", msg)
    return re.sub(r"\b\d+\b", "N", m)


class Triage:
    """Verdicts from a JSON list of rules, first match wins:
    {"match": REGEX searched in "<path>:<line>:<col>:<check>: <message>"
    (path relative to --root), "project": optional name, "verdict":
    "false alarm: why" | "true hazard: why"}."""

    def __init__(self, path):
        self.rules = []
        if path:
            for r in json.loads(Path(path).read_text()).get("rules", []):
                self.rules.append((re.compile(r["match"]), r.get("project"),
                                   r["verdict"]))

    def verdict(self, project, key, msg, decl=""):
        text = f"{key}: {msg} || declared: {decl}"
        for rx, proj, verdict in self.rules:
            if (proj is None or proj == project) and rx.search(text):
                return verdict
        return ""


def summarise(results, root, triage):
    """Per-project aggregates from the per-file records."""
    summ = {}
    for name, pr in results["projects"].items():
        files = pr["files"]
        status = Counter(f["status"] for f in files)
        causes = defaultdict(list)
        all_keys = defaultdict(list)
        for f in files:
            if f["status"] != "ok":
                key = (f["cause"] if f["status"] in ("parse-failure", "nvcc-only-syntax")
                       else f["status"])
                causes[key].append(f)
            for k in f.get("error_keys", []):
                all_keys[k].append(f)
        distinct = {}
        printed = 0
        for f in files:
            for x in f["findings"]:
                printed += 1
                k = finding_key(x, root)
                d = distinct.setdefault(k, {"msg": x["msg"], "check": x["check"],
                                            "printed": 0, "files": set(),
                                            "sev": set(),
                                            "decl": x.get("decl_text", "")})
                d["printed"] += 1
                d["files"].add(f["rel"])
                d["sev"].add(x["sev"])
        for k, d in distinct.items():
            d["verdict"] = triage.verdict(name, k, d["msg"], d["decl"])
        groups = defaultdict(lambda: {"distinct": 0, "printed": 0, "files": set(),
                                      "example": None, "verdicts": Counter()})
        for k, d in sorted(distinct.items()):
            g = groups[(d["check"], message_pattern(d["msg"]))]
            g["distinct"] += 1
            g["printed"] += d["printed"]
            g["files"] |= d["files"]
            g["example"] = g["example"] or k
            g["verdicts"][d["verdict"].split(":")[0] or "untriaged"] += 1
        notes = Counter()
        for f in files:
            for n in set(note_key(n) for n in f["notes"]):
                notes[n] += 1
        walls = [f["wall_s"] for f in files]
        cpus = [f["cpu_s"] for f in files]
        summ[name] = {
            "linted": len(files), "status": status, "causes": causes,
            "all_keys": all_keys, "distinct": distinct, "groups": groups,
            "printed": printed, "notes": notes,
            "error_limit": sum(1 for f in files if f.get("error_limit")),
            "findings_as_errors": sum(1 for f in files if f.get("findings_as_errors")),
            "wall_mean": statistics.mean(walls) if walls else 0,
            "wall_median": statistics.median(walls) if walls else 0,
            "cpu_mean": statistics.mean(cpus) if cpus else 0,
            "cpu_max": max(cpus) if cpus else 0,
        }
    return summ


def esc(s):
    return s.replace("|", "\\|").replace("\n", " ")


def write_markdown(results, triage, out):
    root = results["root"]
    summ = summarise(results, root, triage)
    L = []
    L.append("# Real-code measurement\n")
    L.append(f"Tool: `{results['tidy']}` ({results.get('tidy_id', '?')}); "
             f"run {results['started']}, `-j {results['jobs']}`, timeout "
             f"{results['timeout']} s, sample {results['sample'] or 'all'}"
             + (f", files matching `{results['files_matching']}`"
                if results.get("files_matching") else "")
             + (f", extra args `{' '.join(results['extra_args'])}`"
                if results.get("extra_args") else "")
             + f"; {fmt_s(results['elapsed_s'])} s wall in all. Paths are "
             f"relative to `{root}`; every finding is in `findings.md`.\n")
    L.append("| project | CUDA files in db | with device lambdas / `__managed__` (file itself; with its headers) | files linted | clang cannot parse | only nvcc-only syntax (exit 3) | timeouts / crashes / unusable | cuda-* findings (distinct / printed) | triaged true / false / not yet | s per file (wall mean / median; cpu mean / max) | full run, cpu |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, pr in results["projects"].items():
        s = summ[name]
        c = pr["census"]
        v = Counter(d["verdict"].split(":")[0] for d in s["distinct"].values())
        st = s["status"]
        L.append(
            f"| {name}{' (variant)' if pr.get('variant') else ''} | {pr['population']} "
            f"| {c.get('direct_lambda', 0)} / {c.get('direct_managed', 0)}; "
            f"{c.get('any_lambda', 0)} / {c.get('any_managed', 0)} "
            f"| {s['linted']} | {st['parse-failure']} | {st['nvcc-only-syntax']} | {st['timeout']} / {st['crash']} / {st['unusable']} "
            f"| {len(s['distinct'])} / {s['printed']} "
            f"| {v['true hazard']} / {v['false alarm']} / {len(s['distinct']) - v['true hazard'] - v['false alarm']} "
            f"| {fmt_s(s['wall_mean'])} / {fmt_s(s['wall_median'])}; {fmt_s(s['cpu_mean'])} / {fmt_s(s['cpu_max'])} "
            f"| {pr['population'] * s['cpu_mean'] / 60:.0f} min |")
    real = {n: pr for n, pr in results["projects"].items() if not pr.get("variant")}
    tot_pop = sum(pr["population"] for pr in real.values())
    tot_cpu = sum(pr["population"] * summ[n]["cpu_mean"] for n, pr in real.items())
    tot_dl = sum(pr["census"].get("direct_lambda_or_managed", 0) for pr in real.values())
    tot_al = sum(pr["census"].get("any_lambda_or_managed", 0) for pr in real.values())
    L.append(f"\nWithout variants: {tot_pop} CUDA files in the databases; {tot_dl} "
             f"with a device lambda or `__managed__` in the file itself, {tot_al} "
             f"counting the project headers they include. At the CPU seconds per "
             f"file measured here a run of every file takes about "
             f"{tot_cpu / 3600:.1f} CPU hours (wall: that divided by -j on an idle "
             f"machine).\n")

    F = ["# Every cuda-* finding\n",
         f"Run {results['started']}; paths relative to `{root}`. One line per "
         "distinct location and check; 'printed' counts every time a run printed "
         "it (once per translation unit that reaches it).\n"]
    for name, pr in results["projects"].items():
        s = summ[name]
        c = pr["census"]
        L.append(f"## {name}\n")
        L.append(f"{pr['repository']} @ `{pr['commit']}`; "
                 f"`{rel_root(pr['build'], root)}/compile_commands.json`: "
                 f"{pr['db_entries']} entries, {pr['population']} CUDA files of the "
                 f"project's own ({pr['compilers']}).\n")
        if pr.get("nvcc"):
            nv = pr["nvcc"]
            ok = [r for r, x in nv.items() if x["rc"] == 0]
            bad = [f"`{r}` ({esc(x['error'][:100])})" for r, x in nv.items() if x["rc"] != 0]
            L.append(f"nvcc 13 through the database's own command: {len(ok)} of "
                     f"{len(nv)} files compile"
                     + (f"; rejected: {'; '.join(bad)}" if bad else "") + ".\n")
        if s["causes"]:
            L.append("Files clang cannot parse (or only partly: nvcc-only syntax), by the first error's cause:\n")
            L.append("| cause | files | example: first error | nvcc 13 on the example |")
            L.append("|---|---|---|---|")
            for key, fs in sorted(s["causes"].items(), key=lambda kv: -len(kv[1])):
                ex = fs[0]
                fe = ex.get("first_error")
                if fe:
                    loc = (f"{rel_root(fe['file'], root)}:{fe['line']}:{fe['col']}"
                           if fe["file"] else "command line")
                    where = f"`{ex['rel']}`: `{loc}`: {esc(fe['msg'][:200])}"
                else:
                    where = f"`{ex['rel']}` (exit {ex['rc']})"
                nv = pr.get("nvcc", {}).get(ex["rel"])
                nvs = ("" if nv is None else "compiles" if nv["rc"] == 0
                       else f"rejects: {esc(nv['error'][:120])}")
                L.append(f"| {esc(key)} | {len(fs)} | {where} | {nvs} |")
            L.append("")
            extra = {k: v for k, v in s["all_keys"].items() if k not in s["causes"]}
            if extra:
                L.append("Other errors in those files (not the first): "
                         + "; ".join(f"{esc(k)} ({len(v)} files)" for k, v in
                                     sorted(extra.items(), key=lambda kv: -len(kv[1]))[:12])
                         + ".\n")
            if s["error_limit"]:
                L.append(f"The error limit (\"{LIMIT_MSG}\") was reached in "
                         f"{s['error_limit']} files; cuda-* findings were printed "
                         f"as errors in {s['findings_as_errors']}.\n")
        else:
            L.append("Every file linted parses.\n")
        if s["groups"]:
            L.append("cuda-* findings, grouped by check and message pattern:\n")
            L.append("| check | message pattern | distinct | printed | files | triage (distinct) | example |")
            L.append("|---|---|---|---|---|---|---|")
            for (check, pat), g in sorted(s["groups"].items(), key=lambda kv: -kv[1]["distinct"]):
                tv = ", ".join(f"{k} {v}" for k, v in g["verdicts"].items())
                L.append(f"| {check} | {esc(pat[:150])} | {g['distinct']} | {g['printed']} "
                         f"| {len(g['files'])} | {tv} | `{g['example'].rsplit(':', 1)[0]}` |")
            L.append("")
        if s["notes"]:
            L.append("Tool notes (files that printed each):\n")
            for n, k in s["notes"].most_common(12):
                L.append(f"- {k} × `{n.replace('`', '')}`")
            L.append("")
        if s["distinct"]:
            F.append(f"## {name}\n")
            F.append("| location | check | message | declaration (from the note) | printed | files | triage |")
            F.append("|---|---|---|---|---|---|---|")
            for k, d in sorted(s["distinct"].items()):
                loc = k.rsplit(":", 1)[0]
                F.append(f"| `{loc}` | {d['check']}{' (error)' if 'error' in d['sev'] else ''} "
                         f"| {esc(d['msg'])} | `{esc(d['decl'])}` | {d['printed']} | {len(d['files'])} | {esc(d['verdict'])} |")
            F.append("")
    (Path(out) / "results.md").write_text("\n".join(L) + "\n")
    (Path(out) / "findings.md").write_text("\n".join(F) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--projects", default=str(DEFAULT_PROJECTS))
    ap.add_argument("--root", default="/work/realcode")
    ap.add_argument("--tidy", default=DEFAULT_TIDY)
    ap.add_argument("--copy-tidy-from", metavar="BIN",
                    help="first copy BIN (e.g. build/bin/cuda-lambda-tidy) and "
                    "the plugin of its build (lib/libCudaLambdaTidy.so) to where "
                    "--tidy says (default: OUT/bin), so that a rebuild cannot change it "
                    "mid-run")
    ap.add_argument("--out", default="real-code-out")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--sample-for", action="append", default=[],
                    metavar="NAME=N", help="--sample for one project")
    ap.add_argument("--sample-skip", action="append", default=[],
                    metavar="NAME=K",
                    help="leave out the first K files of a project's sample "
                         "(its order: the rest of a run stopped after K)")
    ap.add_argument("--files-matching", default="")
    ap.add_argument("--lambda-files", action="store_true",
                    help="only the files the census counts (a device lambda "
                         "or __managed__, in the file or a project header)")
    ap.add_argument("--only", default="")
    ap.add_argument("--extra-arg", action="append", default=[],
                    help="passed to the tool before the file")
    ap.add_argument("--triage", default=str(HERE / "real-code-triage.json"))
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--nvcc-check", type=int, default=None, metavar="N",
                    help="compile with nvcc, through the database, one example "
                    "of each cause and N files with findings per project of "
                    "the results in --out")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--reparse", action="store_true",
                    help="rebuild results.json from the logs in --out, then report")
    ap.add_argument("--count-only", action="store_true")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    triage_path = a.triage if a.triage and Path(a.triage).exists() else None

    if a.reparse:
        results = json.loads((out / "results.json").read_text())
        projects = {p["name"]: p for p in load_projects(a.projects, results["root"])}
        for name, pr in results["projects"].items():
            pr["files"] = [make_record(run_from_log(f["log"]), projects[name],
                                       f["file"], f["rel"], f["log"])
                           for f in pr["files"]]
        (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
        write_markdown(results, Triage(triage_path), out)
        print(out / "results.md")
        return 0

    if a.nvcc_check is not None:
        results = json.loads((out / "results.json").read_text())
        projects = {p["name"]: p for p in load_projects(a.projects, results["root"])}
        todo = []
        for name, pr in results["projects"].items():
            if a.only and name not in a.only.split(","):
                continue
            seen, picks = set(), []
            for f in pr["files"]:  # one example of each cause
                if f["status"] != "ok" and f["cause"] not in seen:
                    seen.add(f["cause"])
                    picks.append(f)
            picks += [f for f in pr["files"] if f["findings"]][:a.nvcc_check]
            picks += [f for f in pr["files"] if f["status"] == "ok"][:1]
            done_files = set(pr.get("nvcc", {}))
            for f in picks:
                if f["rel"] not in done_files:
                    done_files.add(f["rel"])
                    todo.append((name, f))
        print(f"nvcc on {len(todo)} files", file=sys.stderr)

        def check(job):
            name, f = job
            r = nvcc_check(projects[name], f["file"], os.path.dirname(a.nvcc),
                           a.timeout)
            print(f"{name} {f['rel']}: nvcc exit {r['rc']} {r.get('error', '')[:120]}",
                  file=sys.stderr, flush=True)
            return name, f["rel"], r

        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
            for name, r, res in ex.map(check, todo):
                results["projects"][name].setdefault("nvcc", {})[r] = res
        (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
        write_markdown(results, Triage(triage_path), out)
        print(out / "results.md")
        return 0

    if a.report_only:
        results = json.loads((out / "results.json").read_text())
        write_markdown(results, Triage(triage_path), out)
        print(out / "results.md")
        return 0

    if a.copy_tidy_from:
        import shutil
        # Into this run's own directory unless --tidy says where: runs from
        # different builds at the same time must not swap binaries.
        if a.tidy == DEFAULT_TIDY:
            a.tidy = str(out.resolve() / "bin" / "cuda-lambda-tidy")
        Path(a.tidy).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(a.copy_tidy_from, a.tidy)
        plugin = Path(a.copy_tidy_from).resolve().parent.parent / "lib" / "libCudaLambdaTidy.so"
        if plugin.exists():
            shutil.copy2(plugin, Path(a.tidy).parent / plugin.name)
    if not a.count_only and not os.access(a.tidy, os.X_OK):
        print(f"real-code.py: no tool at {a.tidy}", file=sys.stderr)
        return 2
    projects = load_projects(a.projects, root)
    if a.only:
        keep = set(a.only.split(","))
        projects = [p for p in projects if p["name"] in keep]
    tidy_id = ""
    if not a.count_only:
        h = hashlib.sha1(Path(a.tidy).read_bytes()).hexdigest()[:12]
        tidy_id = f"sha1 {h}, {time.strftime('%Y-%m-%d %H:%M', time.localtime(os.path.getmtime(a.tidy)))}"
    results = {"root": root, "tidy": a.tidy, "tidy_id": tidy_id,
               "started": time.strftime("%Y-%m-%d %H:%M:%S"), "jobs": a.jobs,
               "timeout": a.timeout,
               "sample": " ".join([str(a.sample or "all")] + a.sample_for),
               "files_matching": a.files_matching, "extra_args": a.extra_arg,
               "projects": {}}
    jobs = []
    for p in projects:
        db = Path(p["build"]) / "compile_commands.json"
        if not db.exists():
            print(f"real-code.py: {p['name']}: no {db} (run scripts/real-code-setup.sh)",
                  file=sys.stderr)
            return 2
        files, n_entries = project_files(p)
        census = Census(p)
        cnt = Counter()
        via = Counter()
        lambda_files = set()
        for f, args, d in files:
            dl, dm, al, am, v = census.count(f, args, d)
            if al or am:
                lambda_files.add(f)
            cnt["direct_lambda"] += dl
            cnt["direct_managed"] += dm
            cnt["any_lambda"] += al
            cnt["any_managed"] += am
            cnt["direct_lambda_or_managed"] += dl or dm
            cnt["any_lambda_or_managed"] += al or am
            if al and not dl and v:
                via[rel(p, v)] += 1
        compilers = Counter(compiler_of(args) for _, args, _ in files)
        n = a.sample
        for x in a.sample_for:
            k, _, v = x.partition("=")
            if k == p["name"]:
                n = int(v)
        chosen = sample(p, [x for x in files if x[0] in lambda_files]
                        if a.lambda_files else files, n, a.files_matching)
        for x in a.sample_skip:
            k, _, v = x.partition("=")
            if k == p["name"]:
                chosen = chosen[int(v):]
        results["projects"][p["name"]] = {
            "repository": p["repository"], "commit": p["commit"],
            "src": p["src"], "build": p["build"], "db_entries": n_entries,
            "population": len(files),
            "compilers": ", ".join(f"{k} ×{v}" for k, v in compilers.items()),
            "census": dict(cnt), "variant": bool(p.get("variant")),
            "sample": n,
            "census_headers_top": via.most_common(10),
            "files": []}
        print(f"{p['name']}: {n_entries} entries, {len(files)} CUDA files, "
              f"lambdas {cnt['direct_lambda']} direct / {cnt['any_lambda']} with headers, "
              f"__managed__ {cnt['direct_managed']} / {cnt['any_managed']}; "
              f"linting {len(chosen)}", file=sys.stderr)
        for f, args, d in chosen:
            jobs.append((p, f))
    if a.count_only:
        print(json.dumps({k: v["census"] | {"population": v["population"]}
                          for k, v in results["projects"].items()}, indent=1))
        return 0

    t0 = time.monotonic()
    lock = threading.Lock()
    done = [0]

    def work(job):
        p, f = job
        r = rel(p, f)
        log = out / "logs" / p["name"] / (re.sub(r"[^A-Za-z0-9._-]", "_", r) + ".log")
        log.parent.mkdir(parents=True, exist_ok=True)
        run = run_one(a.tidy, p["build"], f, a.timeout,
                      p.get("tidy_args", []) + a.extra_arg, log)
        rec = make_record(run, p, f, r, log)
        status, findings = rec["status"], rec["findings"]
        with lock:
            done[0] += 1
            print(f"[{done[0]}/{len(jobs)}] {p['name']} {r}: {status}"
                  f"{' (' + rec['cause'] + ')' if status == 'parse-failure' else ''}, "
                  f"{len(findings)} cuda-* printed, {run['wall_s']:.1f} s",
                  file=sys.stderr, flush=True)
        return p["name"], rec

    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        for name, rec in ex.map(work, jobs):
            results["projects"][name]["files"].append(rec)
    results["elapsed_s"] = round(time.monotonic() - t0, 1)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    write_markdown(results, Triage(triage_path), out)
    print(out / "results.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
