#!/usr/bin/env python3
"""Generates docs/coverage.md from an actual run: for every rule in the hazard
catalogue, what nvcc 13, clang 22 (-fsyntax-only, device and host pass) and
cuda-lambda-tidy do on the rule's fixtures. The catalogue is docs/hazards.md
(--spec for another copy).

A rule's fixtures are fixtures/<its check>/*.cu. A *bad* fixture is one that
expects at least one diagnostic from the rule's check; a *good* one expects
none. Each cell counts files: for bad fixtures, how many the tool flagged; for
good fixtures, how many it left silent.

  python3 scripts/coverage.py [--tool build/bin/cuda-lambda-tidy] [--out docs/coverage.md]
  python3 scripts/coverage.py --only H19,H16   # re-measure these rules' rows

With --only, the other rows of the existing file are kept as they were
measured, and a line under the table says which rows were re-measured when.

The file ends with a second table: every extended-lambda message template
of the installed nvcc's front end (cudafe++), and the check and fixtures
that predict it or why one translation unit cannot, from
docs/nvcc-lambda-messages.json (test/e2e/nvcc_messages.py checks that mapping).
That section alone, without running any fixture:

  python3 scripts/coverage.py --nvcc-messages-only
"""

import argparse
import concurrent.futures
import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "test" / "lib"), str(ROOT / "test" / "e2e")]
from cuda_setup import CUDA_PATH, NVCC_FLAGS, cuda_parse_flags  # noqa: E402
from fixture_format import parse_fixture  # noqa: E402
import nvcc_messages  # noqa: E402

NVCC_SECTION_BEGIN = "<!-- nvcc-lambda-messages: begin -->"
NVCC_SECTION_END = "<!-- nvcc-lambda-messages: end -->"

RULE_RE = re.compile(r"^\*\*(H\d+) `([a-z0-9-]+)`\*\*(?: \*\([^)]*\)\*)? — (.*)$")
# The kernel-boundary rules are list items: "- **H30 `check`** (source): ...".
LIST_RULE_RE = re.compile(r"^- \*\*(H\d+) `([a-z0-9-]+)`\*\*(?: \([^)]*\))?: (.*)$")


def catalogue(spec: Path):
    rules = []
    for line in spec.read_text().splitlines():
        if m := RULE_RE.match(line) or LIST_RULE_RE.match(line):
            summary = re.split(r"(?<=[a-z)]\.)\s|:\s", m[3])[0].rstrip(".")
            rules.append((m[1], m[2], summary[:90]))
    return rules


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def clang_flags_file(output, path):
    """Whether clang printed an error or a warning located in the fixture."""
    name = re.escape(str(path))
    return re.search(rf"^{name}:\d+:\d+: (error|warning):", output, re.M) is not None


def measure(fixture_path: Path, check: str, tool: str):
    fixture = parse_fixture(fixture_path)
    bad = any(msg.endswith(f"[{check}]") for *_, msg in fixture.expected)
    result = {"bad": bad}
    if fixture.nvcc_skip:
        result["nvcc"] = None
    else:
        nvcc = run([f"{CUDA_PATH}/bin/nvcc", *NVCC_FLAGS, *fixture.nvcc_args,
                    str(fixture_path), "-o", os.devnull])
        result["nvcc"] = nvcc.returncode != 0
    clang = ["clang++-22", "-fsyntax-only", *cuda_parse_flags(tool), *fixture.run_args]
    for side in ("device", "host"):
        out = run([*clang, f"--cuda-{side}-only", str(fixture_path)])
        result[side] = clang_flags_file(out.stdout + out.stderr, fixture_path)
    tidy = run([tool, f"--checks=-*,{check}", str(fixture_path), "--", *fixture.run_args])
    result["tidy"] = f"[{check}]" in tidy.stdout
    return result


def cell(results, key, bad):
    rows = [r for r in results if r["bad"] == bad and r[key] is not None]
    if not rows:
        return "—"
    flagged = sum(1 for r in rows if r[key])
    if bad:
        return f"flags {flagged}/{len(rows)}"
    return f"silent {len(rows) - flagged}/{len(rows)}"


def cell_text(text: str) -> str:
    return text.replace("|", "\\|")


def nvcc_messages_section():
    """The table of nvcc's extended-lambda message templates, between its
    markers."""
    mapping = nvcc_messages.load_mapping()
    cudafe = nvcc_messages.find_cudafe()
    entries = {e["template"]: e for e in mapping["messages"]}
    if cudafe:
        templates = nvcc_messages.lambda_templates(cudafe, mapping)
        source = (f"the `cudafe++` of nvcc {nvcc_messages.toolkit_version(cudafe)} "
                  f"(`{cudafe}`)")
    else:
        templates = list(entries)
        source = "the mapping alone (no CUDA toolkit found)"
    rows, predicted, unpredictable, unmapped = [], 0, 0, 0
    for number, template in enumerate(templates, start=1):
        entry = entries.get(template)
        if not entry:
            unmapped += 1
            rows.append(f"| {number} | `{cell_text(template)}` | **unmapped** | | |")
            continue
        if entry.get("check"):
            predicted += 1
            check = entry["check"]
            fixtures = ", ".join(
                f"[`{Path(f).name}`](../{f})" for f in entry.get("fixtures", []))
            rows.append(f"| {number} | `{cell_text(template)}` | "
                        f"[`{check}`](checks/{check}.md) | {fixtures} | "
                        f"{cell_text(entry.get('note', ''))} |")
        else:
            unpredictable += 1
            rows.append(f"| {number} | `{cell_text(template)}` | not predictable | | "
                        f"{cell_text(entry['unpredictable'])} |")
    return [
        NVCC_SECTION_BEGIN,
        "## nvcc's extended-lambda messages",
        "",
        "Every extended-lambda message template of nvcc's front end, read from "
        f"{source}, and the check and fixtures that predict it, or why one "
        "translation unit cannot. Generated by `python3 scripts/coverage.py "
        "--nvcc-messages-only` from `docs/nvcc-lambda-messages.json`; the ctest "
        "`nvcc-lambda-messages` fails when a template of the installed toolkit "
        "is mapped to nothing.",
        "",
        f"{len(templates)} templates: {predicted} predicted by a check, "
        f"{unpredictable} not predictable from one translation unit"
        + (f", **{unmapped} unmapped**" if unmapped else "") + ".",
        "",
        "| # | nvcc message template (`cudafe++`) | predicted by | fixtures | note, or why not |",
        "|---|---|---|---|---|",
        *rows,
        NVCC_SECTION_END,
    ]


def replace_nvcc_section(lines):
    """\p lines with the nvcc-messages section regenerated (appended when
    missing)."""
    section = nvcc_messages_section()
    if NVCC_SECTION_BEGIN in lines and NVCC_SECTION_END in lines:
        begin, end = lines.index(NVCC_SECTION_BEGIN), lines.index(NVCC_SECTION_END)
        return lines[:begin] + section + lines[end + 1:]
    while lines and lines[-1] == "":
        lines = lines[:-1]
    return lines + [""] + section


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", default=str(ROOT / "build/bin/cuda-lambda-tidy"))
    parser.add_argument("--spec", default=str(ROOT / "docs/hazards.md"))
    parser.add_argument("--out", default=str(ROOT / "docs/coverage.md"))
    parser.add_argument("--only", default="",
                        help="comma-separated rules (H19,...) to re-measure "
                             "in the existing --out file")
    parser.add_argument("--nvcc-messages-only", action="store_true",
                        help="regenerate only the table of nvcc's extended-"
                             "lambda messages in the existing --out file")
    args = parser.parse_args()

    if args.nvcc_messages_only:
        out = Path(args.out)
        lines = out.read_text().splitlines() if out.exists() else []
        lines = replace_nvcc_section(lines)
        out.write_text("\n".join(lines) + "\n")
        print("\n".join(nvcc_messages_section()))
        return 0

    rules = catalogue(Path(args.spec))
    only = [r for r in args.only.split(",") if r]
    unknown = sorted(set(only) - {rule for rule, _, _ in rules})
    if unknown:
        sys.exit(f"coverage.py: no such rule in the catalogue: {', '.join(unknown)}")
    listed = run([args.tool, "--checks=-*,cuda-*", "--list-checks"]).stdout
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for rule, check, _ in rules:
            if only and rule not in only:
                continue
            for f in sorted((ROOT / "fixtures" / check).glob("*.cu")):
                jobs[pool.submit(measure, f, check, args.tool)] = rule
        by_rule = {}
        for future, rule in jobs.items():
            by_rule.setdefault(rule, []).append(future.result())

    lines = [
        "# Coverage: what each tool does with each rule",
        "",
        "Generated by `python3 scripts/coverage.py` from a run over `fixtures/`; "
        "do not edit by hand.",
        f"Date: {datetime.date.today().isoformat()}. nvcc: `{' '.join(NVCC_FLAGS)}`. "
        "clang 22: `clang++-22 -fsyntax-only` with the flags of the README's plugin "
        "route, `--cuda-device-only` and `--cuda-host-only`. cuda-lambda-tidy: the "
        "rule's check alone, in its default passes (the device pass, and the host "
        "pass where the pass probe asks for it; the fixture's RUN-ARGS after `--`).",
        "",
        "Each cell counts fixture files. On a rule's *bad* fixtures, \"flags k/n\": "
        "the tool reported an error (nvcc: refused to compile; clang: an error or "
        "warning in the file) in k of n. On *good* fixtures, \"silent k/n\". "
        "Fixtures whose nvcc verdict is `accepted-but-wrong-at-run-time` are bad "
        "fixtures nvcc compiles: there \"flags 0/n\" is the hazard. \"—\": no "
        "fixture of that kind; \"not implemented\": the check does not exist yet.",
        "",
        "| rule | check | nvcc 13 bad | nvcc 13 good | clang 22 device bad | "
        "clang 22 host bad | clang 22 good (device) | cuda-lambda-tidy bad | "
        "cuda-lambda-tidy good |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    rows = {}
    for rule, check, summary in rules:
        results = by_rule.get(rule, [])
        if check not in listed or not results:
            rows[rule] = (f"| {rule} | `{check}` | " +
                          " | ".join(["not implemented"] * 7) + " |")
            continue
        rows[rule] = (
            f"| {rule} | [`{check}`](checks/{check}.md) | {cell(results, 'nvcc', True)} | "
            f"{cell(results, 'nvcc', False)} | {cell(results, 'device', True)} | "
            f"{cell(results, 'host', True)} | {cell(results, 'device', False)} | "
            f"{cell(results, 'tidy', True)} | {cell(results, 'tidy', False)} |")
    if only:
        # Replace those rows in the file as it stands; keep the rest.
        lines = Path(args.out).read_text().splitlines()
        present, last_row = set(), None
        for i, line in enumerate(lines):
            rule = line.split("|")[1].strip() if line.startswith("| H") else ""
            if rule:
                present.add(rule)
                last_row = i
            if rule in only:
                lines[i] = rows[rule]
        # Rules new to the catalogue go after the last rule row, in order.
        new_rows = [rows[r] for r, _, _ in rules if r in only and r not in present]
        if new_rows and last_row is not None:
            lines[last_row + 1:last_row + 1] = new_rows
        note = (f"Rows re-measured on {datetime.date.today().isoformat()} "
                f"(`--only {','.join(only)}`): {', '.join(only)}.")
        lines = [l for l in lines if not l.startswith("Rows re-measured on ")]
        lines.append("")
        lines.append(note)
        while len(lines) > 1 and lines[-2] == "" and lines[-3] == "":
            del lines[-2]
    else:
        lines += [rows[rule] for rule, _, _ in rules]
    lines = replace_nvcc_section(lines)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
