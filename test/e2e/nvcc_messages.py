#!/usr/bin/env python3
"""nvcc's extended-lambda rules, as its front end states them, against what
this linter predicts.

nvcc's front end, cudafe++, carries its diagnostics as message templates
(`strings cudafe++` lists them). Those about extended lambdas are selected by
the patterns in docs/nvcc-lambda-messages.json ("select"); the same file maps
each template to the cuda-* check and the fixtures that predict it, or to the
reason one translation unit cannot predict it ("unpredictable").

  python3 test/e2e/nvcc_messages.py [--cuda-path DIR] [--tool BIN]
                                [--mapping docs/nvcc-lambda-messages.json]

Fails (exit 1) when a template of the installed cudafe++ is mapped to
nothing, when an entry names a check that is not registered (the --tool's
--list-checks; without --tool, checks/CudaTidyModule.cpp), a fixture that
does not exist, or predicted fixtures none of which expects that check's
diagnostic. Mapped templates that this cudafe++ lacks are listed, not
failed (an older or newer toolkit). Exits 77 (ctest: skipped) when no
toolkit is found: --cuda-path or else CUDA_PATH when given (and then only
there), otherwise the nvcc on PATH, then /usr/local/cuda. Reads one binary and a few small files: well under a
second.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAPPING = ROOT / "docs" / "nvcc-lambda-messages.json"
SKIP = 77


def find_cudafe(cuda_path=None):
    """cudafe++ of the toolkit in use, or None."""
    # A toolkit that is named is the one in use: no fallback past it.
    root = cuda_path or os.environ.get("CUDA_PATH")
    if root:
        candidates = [Path(root) / "bin" / "cudafe++"]
    else:
        nvcc = shutil.which("nvcc")
        candidates = [Path(nvcc).resolve().parent / "cudafe++"] if nvcc else []
        candidates.append(Path("/usr/local/cuda/bin/cudafe++"))
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None


def toolkit_version(cudafe: Path) -> str:
    nvcc = cudafe.parent / "nvcc"
    try:
        out = subprocess.run([str(nvcc), "--version"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    m = re.search(r"release [\d.]+, (V[\d.]+)", out)
    return m[1] if m else "unknown"


def strings_of(binary: Path, minimum=8):
    """The printable runs of a binary, as `strings` prints them."""
    data = binary.read_bytes()
    return [s.decode("ascii") for s in re.findall(rb"[\x20-\x7e]{%d,}" % minimum, data)]


def load_mapping(path: Path = MAPPING):
    return json.loads(path.read_text())


def lambda_templates(binary: Path, mapping):
    """The extended-lambda message templates of \\p binary, in its order,
    each once."""
    select = re.compile("|".join(f"(?:{p})" for p in mapping["select"]))
    seen, found = set(), []
    for s in strings_of(binary):
        # Message templates are prose: skip identifiers and generated code.
        if " " not in s or s in seen or not select.search(s):
            continue
        if s.startswith(("#", "__nv_", "(", ",")) or "__NV_" in s:
            continue
        seen.add(s)
        found.append(s)
    return found


def registered_checks(tool=None):
    if tool:
        out = subprocess.run([tool, "--checks=-*,cuda-*", "--list-checks"],
                             capture_output=True, text=True, timeout=60).stdout
        return set(re.findall(r"^\s+(cuda-[a-z0-9-]+)\s*$", out, re.M))
    module = (ROOT / "checks" / "CudaTidyModule.cpp").read_text()
    return set(re.findall(r'"(cuda-[a-z0-9-]+)"', module))


def expects_check(fixture: Path, check: str) -> bool:
    return any(line.lstrip().startswith("// CHECK-MESSAGES") and line.rstrip().endswith(f"[{check}]")
               for line in fixture.read_text().splitlines())


def problems_of(mapping, templates, checks):
    """What is wrong with the mapping, one line each."""
    problems = []
    entries = {e["template"]: e for e in mapping["messages"]}
    if len(entries) != len(mapping["messages"]):
        problems.append("mapping: a template is listed twice")
    for t in templates:
        if t not in entries:
            problems.append(f"unmapped: {t!r}: add it to {MAPPING.relative_to(ROOT)} "
                            "with the check and fixture that predict it, or the "
                            "reason one translation unit cannot")
    for t, e in entries.items():
        check, reason = e.get("check"), e.get("unpredictable")
        if bool(check) == bool(reason):
            problems.append(f"entry {t!r}: needs either a check or an "
                            "'unpredictable' reason, not both or neither")
            continue
        if reason:
            continue
        if check not in checks:
            problems.append(f"entry {t!r}: check {check} is not registered")
        fixtures = [ROOT / f for f in e.get("fixtures", [])]
        if not fixtures:
            problems.append(f"entry {t!r}: no fixture")
        missing = [f for f in fixtures if not f.is_file()]
        for f in missing:
            problems.append(f"entry {t!r}: fixture {f.relative_to(ROOT)} does not exist")
        if fixtures and not missing and not any(expects_check(f, check) for f in fixtures):
            problems.append(f"entry {t!r}: none of its fixtures expects a "
                            f"[{check}] diagnostic")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cuda-path")
    parser.add_argument("--tool", help="cuda-lambda-tidy binary (its --list-checks)")
    parser.add_argument("--mapping", default=str(MAPPING))
    args = parser.parse_args()

    cudafe = find_cudafe(args.cuda_path)
    if not cudafe:
        print("SKIPPED: no CUDA toolkit (no cudafe++ under --cuda-path, CUDA_PATH, "
              "the nvcc on PATH or /usr/local/cuda): nvcc's messages cannot be read")
        return SKIP
    mapping = load_mapping(Path(args.mapping))
    templates = lambda_templates(cudafe, mapping)
    problems = problems_of(mapping, templates, registered_checks(args.tool))
    entries = {e["template"]: e for e in mapping["messages"]}
    present = [entries[t] for t in templates if t in entries]
    predicted = sum(1 for e in present if e.get("check"))
    print(f"{cudafe} ({toolkit_version(cudafe)}): {len(templates)} extended-lambda "
          f"message templates; {predicted} predicted by a check, "
          f"{len(present) - predicted} unpredictable (with a reason), "
          f"{len(templates) - len(present)} unmapped")
    for t in entries:
        if t not in templates:
            print(f"note: mapped but not in this cudafe++: {t!r}")
    for p in problems:
        print(f"FAIL {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
