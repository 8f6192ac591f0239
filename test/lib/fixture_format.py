"""The fixture format (fixtures/<check>/*.cu): a CUDA source whose comments
say what must happen to it (test/e2e/run_fixtures.py's docstring lists the
directives). Read by every runner: the drop-in and plugin routes, clangd,
the preamble cache, coverage."""

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path

EXPECT_RE = re.compile(
    r"//\s*CHECK-(?P<kind>MESSAGES|NOTES):\s*"
    r":(?:\[\[@LINE(?P<off>[+-]\d+)?\]\]|(?P<abs>\d+)):(?P<col>\d+):\s*"
    r"(?P<sev>warning|error|note):\s*(?P<msg>.*?)\s*$")
FIXES_RE = re.compile(r"//\s*CHECK-FIXES:\s?(?P<text>.*?)\s*$")
DIRECTIVE_RE = re.compile(
    r"//\s*(?P<key>RUN-ARGS|TIDY-ARGS|CHECKS|NVCC|NVCC-ARGS|NVCC-FLAGS-REMOVE|"
    r"NVCC-SKIP|NVCC-AFTER-FIX|PASSES):"
    r"\s*(?P<value>.*?)\s*$")
VERDICT_RE = re.compile(
    r'^(?P<verdict>rejected|accepted|accepted-but-wrong-at-run-time)'
    r'(?:\s+"(?P<text>.*)")?$')


@dataclass
class Fixture:
    path: Path
    expected: list = field(default_factory=list)  # (line, col, sev, msg)
    fixes: list = field(default_factory=list)
    run_args: list = field(default_factory=list)
    tidy_args: list = field(default_factory=list)
    checks: str = "-*,cuda-*"
    nvcc: str = ""
    nvcc_args: list = field(default_factory=list)
    nvcc_remove: list = field(default_factory=list)
    nvcc_skip: str = ""
    nvcc_after_fix: bool = False
    passes: list = field(default_factory=list)
    # A PASSES variant (the same file again): " (host pass)" after its name
    # in the runners' lines. nvcc is asked once, for the fixture as written.
    pass_note: str = ""


def parse_fixture(path: Path) -> Fixture:
    fixture = Fixture(path)
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if m := EXPECT_RE.search(line):
            target = int(m["abs"]) if m["abs"] else number + int(m["off"] or 0)
            fixture.expected.append((target, int(m["col"]), m["sev"], m["msg"]))
        elif "CHECK-MESSAGES" in line or "CHECK-NOTES" in line:
            raise ValueError(f"{path}:{number}: malformed expectation: {line.strip()}")
        elif m := FIXES_RE.search(line):
            fixture.fixes.append(m["text"].strip())
        elif m := DIRECTIVE_RE.search(line):
            key, value = m["key"], m["value"]
            if key == "RUN-ARGS":
                fixture.run_args += value.split()
            elif key == "TIDY-ARGS":
                fixture.tidy_args.append(value)
            elif key == "CHECKS":
                fixture.checks = value
            elif key == "NVCC":
                fixture.nvcc = value
            elif key == "NVCC-ARGS":
                fixture.nvcc_args += value.split()
            elif key == "NVCC-FLAGS-REMOVE":
                fixture.nvcc_remove += value.split()
            elif key == "NVCC-SKIP":
                fixture.nvcc_skip = value
            elif key == "NVCC-AFTER-FIX":
                fixture.nvcc_after_fix = value == "compiles"
            elif key == "PASSES":
                fixture.passes = value.split()
    return fixture



# `// PASSES: device host`: the fixture's expectations hold in both of nvcc's
# passes. It is linted as written (the default, the device pass) and again
# with --cuda-host-only, rather than kept twice in two files.
PASS_FLAGS = {"device": [], "host": ["--cuda-host-only"]}


def fixtures_of(path: Path) -> list:
    """The runs of the fixture at \\p path: one, or one per pass its
    PASSES directive names (the first as written, each other one with its
    pass's flag and a `pass_note`)."""
    fixture = parse_fixture(path)
    if not fixture.passes:
        return [fixture]
    runs = []
    for index, pass_ in enumerate(fixture.passes):
        if pass_ not in PASS_FLAGS:
            raise ValueError(f"{path}: unknown pass {pass_!r} in PASSES")
        if index == 0:
            runs.append(fixture)
            continue
        variant = dataclasses.replace(
            fixture, run_args=fixture.run_args + PASS_FLAGS[pass_],
            tidy_args=list(fixture.tidy_args), pass_note=f" ({pass_} pass)")
        runs.append(variant)
    return runs


def matches(expected, actual):
    """Line, column and severity exactly; the message exactly, except that
    {{regex}} stands for what varies between machines (FileCheck's syntax)."""
    if expected[:3] != actual[:3]:
        return False
    parts = re.split(r"\{\{(.*?)\}\}", expected[3])
    pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?:{p})"
                      for i, p in enumerate(parts))
    return re.fullmatch(pattern, actual[3]) is not None



INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"](?P<name>[^>"]+)[>"]')


def included_header(path: Path, pattern: str):
    """The first header \\p path includes whose name matches \\p pattern."""
    for line in path.read_text().splitlines():
        m = INCLUDE_RE.match(line)
        if m and re.search(pattern, m["name"]):
            return m["name"]
    return None


def skip_reason(fixture: Fixture, including=None, silent_including=None):
    """Why a fixture is left out (--skip-including, --skip-silent-including),
    or None."""
    header = including and included_header(fixture.path, including)
    if header:
        return f"includes <{header}>"
    header = (silent_including and not fixture.expected and
              included_header(fixture.path, silent_including))
    if header:
        return f"a look-alike including <{header}> (the drop-in's run lints it)"
    return None


