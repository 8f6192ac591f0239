#!/usr/bin/env python3
"""The one runner for every fixture under fixtures/.

A fixture is a CUDA source whose comments state what must happen to it:

  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: <message> [<check>]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: <message>
  // CHECK-FIXES: <a line of the file as it must read after --fix>
  // RUN-ARGS: <compiler flags for this fixture, e.g. -std=c++14>
  // CHECKS: <the --checks value; default '-*,cuda-*', every check of ours>
  // TIDY-ARGS: <one linter argument, e.g. --config={CheckOptions: {cuda-lambda-this-capture.StrictHostDevice: false}}>
  // NVCC: rejected "<substring of nvcc's error>" | accepted | accepted-but-wrong-at-run-time
  // NVCC-ARGS: <extra nvcc flags for this fixture, e.g. -rdc=true>
  // NVCC-FLAGS-REMOVE: <flags left out of the runner's own nvcc flags,
                        e.g. --extended-lambda for a fixture about its absence>
  // NVCC-SKIP: <why nvcc cannot compile this fixture here>
  // NVCC-AFTER-FIX: compiles
  // PASSES: device host   (linted as written, then again with
                            --cuda-host-only: the same expectations in both
                            of nvcc's passes; one nvcc verdict)

CHECKS and TIDY-ARGS go to the linter, RUN-ARGS to the compiler it runs. Each
TIDY-ARGS line is one argument, spaces and all, placed before the file name
(on both routes); several lines give several arguments. Use it to set check
options for one fixture. The runner's --compiler-arg and --tidy-arg add one
argument to every fixture's RUN-ARGS or TIDY-ARGS; --skip-including REGEX
leaves out (as SKIP, naming the header) the fixtures that include a header
whose name matches, such as thrust's when linting without a toolkit;
--skip-silent-including REGEX only those of them that expect no diagnostic.
The expectations are those of the device pass (clang-tidy's default side of a
CUDA file): the drop-in binary, which lints both passes by default, is run
with --cuda-pass=device (--cuda-pass=host when the fixture's RUN-ARGS say
--cuda-host-only); the runner's --cuda-pass=host lints the host pass on both
routes (the plugin route through clang's --cuda-host-only).

Modes:
  lint  (default) run the linter through one route (drop-in binary or plugin):
        every diagnostic it prints in the fixture must be expected at its exact
        line and column with its exact text, every expectation must be met;
        then apply --fix to a copy: every changed line must be a CHECK-FIXES
        line and every CHECK-FIXES line must appear, a second --fix must change
        nothing, and with NVCC-AFTER-FIX the fixed copy must compile with nvcc.
        With --fixes=exported the lint's own --export-fixes file is applied
        instead of the two --fix runs (one parse instead of three): the same
        lines are checked, the second --fix is not. The drop-in's --fix is
        the normal run's; the other routes use this.
  nvcc  compile every fixture with nvcc and compare with its NVCC verdict.

Prints one line per fixture and closes with 'N passed, N failed'.
"""

import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from cuda_setup import (CUDA_PATH, NVCC_FLAGS, ROOT,  # noqa: E402
                        PLUGIN_NVCC_COMPAT_FLAGS, older_clang_plugin_flags,
                        clang_tidy_major, cuda_parse_flags)
from diagnostics import DIAGNOSTIC  # noqa: E402
from fixture_format import (VERDICT_RE, Fixture, fixtures_of,  # noqa: E402
                            matches, skip_reason)
from nvcc_record import NvccRecord, nvcc_command, run  # noqa: E402

NVCC_RECORD = NvccRecord(None)

class Route:
    """How the linter is invoked: our binary, or clang-tidy-22 plus plugin."""

    def __init__(self, args):
        self.args = args

    def command(self, fixture: Fixture, source: Path, extra=()):
        a = self.args
        checks = f"--checks={fixture.checks}"
        if a.route == "drop-in":
            # A fixture that says --cuda-host-only in its RUN-ARGS is about
            # the host pass.
            pass_ = ("host" if "--cuda-host-only" in fixture.run_args
                     else a.cuda_pass)
            cmd = [a.tool, f"--cuda-pass={pass_}", checks, *fixture.tidy_args,
                   *extra, str(source)]
            # With no flags of its own the fixture exercises the tool's
            # automatic CUDA setup; with flags, the merge of ours and theirs.
            if fixture.run_args:
                cmd += ["--", *fixture.run_args]
            return cmd
        host = ["--cuda-host-only"] if a.cuda_pass == "host" else []
        older = []
        major = clang_tidy_major(a.clang_tidy)
        if major < 22:
            older = older_clang_plugin_flags(major)
            if not host and "--cuda-host-only" not in fixture.run_args:
                older.append("--cuda-device-only")
        return [a.clang_tidy, f"--load={a.plugin}", checks, *fixture.tidy_args,
                *extra, str(source), "--", *cuda_parse_flags(a.tool),
                *PLUGIN_NVCC_COMPAT_FLAGS, *older, *host, *fixture.run_args]

def diagnostics_in(output: str, source: Path):
    """(line, col, severity, message) printed for \\p source; others apart."""
    mine, elsewhere = [], []
    for line in output.splitlines():
        m = DIAGNOSTIC.match(line)
        if not m:
            continue
        entry = (int(m["line"]), int(m["col"]), m["sev"], m["text"])
        if Path(m["file"]).resolve() == source.resolve():
            mine.append(entry)
        else:
            elsewhere.append(f"{m['file']}:{entry[0]}:{entry[1]}: {entry[2]}: {entry[3]}")
    return mine, elsewhere


REPLACEMENT_RE = re.compile(r"^\s*Replacements:\s*\n\s*-\s*FilePath:", re.M)


def lint_fixture(fixture: Fixture, route: Route):
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        exported = Path(tmp) / "fixes.yaml"
        result = run(route.command(fixture, fixture.path,
                                   [f"--export-fixes={exported}"]))
        # What --fix would apply: when the lint offered no fix-it and none is
        # expected, the two --fix runs below could change nothing, and are
        # left out. clang-tidy writes no file when it reports nothing; a
        # missing file after a lint that printed a diagnostic is taken as
        # "there may be fix-its" (--fixes applied runs --fix then).
        exported_text = exported.read_text() if exported.exists() else None
        reported_something = any(
            m["sev"] in ("warning", "error")
            for m in DIAGNOSTIC.finditer(result.stdout + result.stderr))
        if exported_text is None and (route.args.fixes == "exported"
                                      or not reported_something):
            exported_text = ""
        offers_fixes = (exported_text is None
                        or REPLACEMENT_RE.search(exported_text) is not None)
    if result.returncode < 0 or "Stack dump" in result.stderr:
        return [f"the linter crashed (status {result.returncode}):\n{result.stderr[-2000:]}"]
    actual, elsewhere = diagnostics_in(result.stdout, fixture.path)
    # Notes in other files (e.g. "called by" in a header) belong to a
    # diagnostic here; warnings or errors elsewhere are unexpected.
    problems += [f"unexpected diagnostic outside the fixture: {d}"
                 for d in elsewhere if ": note: " not in d]
    remaining = list(actual)
    for exp in fixture.expected:
        match = next((d for d in remaining if matches(exp, d)), None)
        if match:
            remaining.remove(match)
        else:
            problems.append("expected but not reported: %d:%d: %s: %s" % exp)
    problems += ["reported but not expected: %d:%d: %s: %s" % d for d in remaining]
    if problems:
        return problems
    if not offers_fixes and not fixture.fixes:
        return problems

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / fixture.path.name
        shutil.copy(fixture.path, copy)
        for sibling in fixture.path.parent.glob("*.cuh"):
            shutil.copy(sibling, Path(tmp) / sibling.name)
        original = copy.read_text().splitlines()
        if route.args.fixes == "exported":
            error = apply_exported_fixes(exported_text, fixture.path, copy)
            if error:
                return [error]
        else:
            run(route.command(fixture, copy, ["--fix"]))
        fixed = copy.read_text().splitlines()
        changed = [line.strip() for tag, _, _, j1, j2 in
                   difflib.SequenceMatcher(a=original, b=fixed).get_opcodes()
                   if tag in ("replace", "insert") for line in fixed[j1:j2]]
        for line in changed:
            if line not in fixture.fixes:
                problems.append(f"--fix wrote a line no CHECK-FIXES expects: {line}")
        position = 0
        stripped = [line.strip() for line in fixed]
        for want in fixture.fixes:
            try:
                position = stripped.index(want, position) + 1
            except ValueError:
                problems.append(f"CHECK-FIXES not found (in order) after --fix: {want}")
        if problems:
            return problems
        if route.args.fixes == "applied":
            run(route.command(fixture, copy, ["--fix"]))
            if copy.read_text().splitlines() != fixed:
                problems.append("a second --fix changed the file again")
        if fixture.nvcc_after_fix:
            returncode, output = NVCC_RECORD.compile(
                nvcc_command(fixture, copy), copy, fixture.path.parent, tmp)
            if returncode != 0:
                problems.append("nvcc rejects the fixed file:\n" + output[-3000:])
    return problems


def apply_exported_fixes(exported_text, source: Path, copy: Path):
    """Writes into the copy what --fix does to the source: the replacements
    of the warnings (not of their notes, as without --fix-notes) in an
    --export-fixes file, identical ones once; nothing at all where the
    compiler reported an error (clang-tidy applies no fix then, without
    --fix-errors). Returns a problem, or None."""
    import yaml  # only this mode needs it
    replacements = set()
    diags = (yaml.safe_load(exported_text) or {}).get("Diagnostics") or []
    if any(d.get("Level") == "Error" for d in diags):
        return None
    for diag in diags:
        for r in diag.get("DiagnosticMessage", {}).get("Replacements") or []:
            if Path(r["FilePath"]).resolve() == source.resolve():
                replacements.add((int(r["Offset"]), int(r["Length"]),
                                  r.get("ReplacementText") or ""))
    data = copy.read_bytes()
    end = len(data)  # where the replacement after this one starts
    for offset, length, text in sorted(replacements, reverse=True):
        if offset + length > end:
            return ("two exported fix-its overlap at offset %d: --fix would "
                    "apply only one" % offset)
        data = data[:offset] + text.encode() + data[offset + length:]
        end = offset
    copy.write_bytes(data)
    return None


class KnownDifferences:
    """--known-differences: the problems each fixture shows on a route whose
    clang is not the one the fixtures were written for, recorded once and
    reviewed (docs/integration.md, "clang-tidy 19"). Keyed by the fixture's
    path in the source tree and its pass; the source tree's own path is
    written <root>, so that a fresh clone elsewhere compares the same."""

    def __init__(self, path):
        self.path = Path(path) if path else None
        self.entries = {}
        if self.path and self.path.exists():
            self.entries = json.loads(self.path.read_text())
        self.seen = {}

    @staticmethod
    def key(fixture):
        return (fixture.path.resolve().relative_to(ROOT).as_posix()
                + fixture.pass_note)

    def listed(self, fixture):
        return self.key(fixture) in self.entries

    def judge(self, fixture, problems, record):
        key = self.key(fixture)
        shown = sorted(p.replace(str(ROOT), "<root>") for p in problems)
        if record:
            if shown:
                self.seen[key] = shown
            return []
        expected = sorted(self.entries.get(key, []))
        if shown == expected:
            return []
        if not shown:
            return [f"listed in {self.path} with differences it no longer "
                    "shows: take it out"]
        extra = [p for p in shown if p not in expected]
        gone = [p for p in expected if p not in shown]
        return ([f"not a known difference: {p}" for p in extra] +
                [f"known difference no longer shown: {p}" for p in gone])

    def save(self):
        self.path.write_text(json.dumps(dict(sorted(self.seen.items())),
                                        indent=1) + "\n")


def nvcc_fixture(fixture: Fixture, _route):
    if fixture.nvcc_skip:
        return None  # skipped, with the reason printed by the caller
    m = VERDICT_RE.match(fixture.nvcc)
    if not m:
        return [f"no valid '// NVCC:' verdict (found {fixture.nvcc!r})"]
    source = fixture.path.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        returncode, output = NVCC_RECORD.compile(
            nvcc_command(fixture, source), source, source.parent, tmp)
    if m["verdict"] == "rejected":
        if returncode == 0:
            return ["the fixture says nvcc rejects it, but nvcc compiled it"]
        if m["text"] and m["text"] not in output:
            return [f"nvcc rejected it, but without {m['text']!r}:\n{output[-3000:]}"]
    elif returncode != 0:
        return [f"the fixture says nvcc accepts it, but nvcc failed:\n{output[-3000:]}"]
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["lint", "nvcc"], default="lint")
    parser.add_argument("--route", choices=["drop-in", "plugin"], default="drop-in")
    parser.add_argument("--tool", help="the cuda-lambda-tidy binary")
    parser.add_argument("--clang-tidy", default="clang-tidy-22")
    parser.add_argument("--plugin", help="libCudaLambdaTidy.so")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--cuda-pass", choices=["device", "host"],
                        default="device",
                        help="which side of each CUDA file to lint")
    parser.add_argument("--compiler-arg", action="append", default=[],
                        help="a compiler flag added to every fixture's RUN-ARGS "
                             "(e.g. --cuda-host-only to lint the host pass)")
    parser.add_argument("--tidy-arg", action="append", default=[],
                        help="a linter argument added to every fixture's "
                             "TIDY-ARGS (e.g. --cuda-toolkit=none to lint "
                             "without the CUDA toolkit)")
    parser.add_argument("--skip-including", metavar="REGEX",
                        help="skip the fixtures that #include a header whose "
                             "name matches REGEX (e.g. '^(thrust|cub)/' with "
                             "--cuda-toolkit=none)")
    parser.add_argument("--skip-silent-including", metavar="REGEX",
                        help="skip the fixtures that #include a header whose "
                             "name matches REGEX and expect no diagnostic "
                             "(the thrust and cub look-alikes, on routes that "
                             "run the same checks as the drop-in)")
    parser.add_argument("--fixes", choices=["applied", "exported"],
                        default="applied",
                        help="check fix-its by running --fix twice (applied) "
                             "or by applying the lint's --export-fixes file "
                             "(exported: one parse, no idempotence check)")
    parser.add_argument("--nvcc-record", metavar="JSON",
                        help="reuse nvcc's results recorded in JSON for "
                             "unchanged fixtures, nvcc and flags; compile "
                             "the rest (see NvccRecord)")
    parser.add_argument("--update-nvcc-record", action="store_true",
                        help="write the results compiled now into "
                             "--nvcc-record")
    parser.add_argument("--known-differences", metavar="JSON",
                        help="the problems each fixture is known to show on "
                             "this route (the plugin in clang-tidy-19: "
                             "clang's own diagnostics and a few of the "
                             "checks' wordings differ); a fixture passes "
                             "when it shows exactly those, and fails when "
                             "it shows others or none")
    parser.add_argument("--write-known-differences", action="store_true",
                        help="record this run's problems into "
                             "--known-differences instead of judging them")
    parser.add_argument("paths", nargs="+", help="fixture files or directories")
    args = parser.parse_args()
    # The drop-in's preamble cache (on by default for one file) is tested by
    # test/e2e/preamble_cache.py; here every fixture is linted without it, so
    # that a run precompiles nothing into the home directory.
    os.environ.setdefault("CUDA_LAMBDA_TIDY_NO_CACHE", "1")
    global NVCC_RECORD
    NVCC_RECORD = NvccRecord(args.nvcc_record)

    files = []
    for p in map(Path, args.paths):
        files += sorted(p.rglob("*.cu")) if p.is_dir() else [p]
    if not files:
        print("no fixtures found", file=sys.stderr)
        return 2

    route = Route(args)
    work = lint_fixture if args.mode == "lint" else nvcc_fixture
    fixtures = [run for f in files for run in fixtures_of(f)]
    if args.mode == "nvcc":
        # One verdict a file: a PASSES variant is the same source.
        fixtures = [f for f in fixtures if not f.pass_note]
    for fixture in fixtures:
        fixture.run_args += args.compiler_arg
        fixture.tidy_args += args.tidy_arg
    passed = failed = skipped = 0
    kept = []
    for fixture in fixtures:
        reason = skip_reason(fixture, args.skip_including,
                             args.skip_silent_including)
        if reason:
            skipped += 1
            print(f"SKIP {os.path.relpath(fixture.path)}{fixture.pass_note}: {reason}")
        else:
            kept.append(fixture)
    fixtures = kept
    known = KnownDifferences(args.known_differences)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        outcomes = pool.map(lambda f: (f, work(f, route)), fixtures)
        for fixture, problems in outcomes:
            name = os.path.relpath(fixture.path) + fixture.pass_note
            if args.known_differences and problems is not None:
                problems = known.judge(fixture, problems,
                                       args.write_known_differences)
                if problems == [] and known.listed(fixture):
                    name += " (its known differences, no more)"
            if problems is None:
                skipped += 1
                print(f"SKIP {name}: {fixture.nvcc_skip}")
            elif problems:
                failed += 1
                print(f"FAIL {name}")
                for problem in problems:
                    print("     " + problem.replace("\n", "\n     "))
            else:
                passed += 1
                print(f"PASS {name}")
    if args.write_known_differences:
        known.save()
    if args.nvcc_record:
        print(f"nvcc: {NVCC_RECORD.reused} results from {args.nvcc_record}, "
              f"{NVCC_RECORD.compiled} compiled now")
        if args.update_nvcc_record and NVCC_RECORD.new:
            NVCC_RECORD.save()
    label = f"{args.mode}/{args.route}" if args.mode == "lint" else "nvcc"
    print(f"{label}: {passed} passed, {failed} failed" +
          (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
