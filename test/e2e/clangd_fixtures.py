#!/usr/bin/env python3
"""Every fixture through cuda-lambda-clangd: ONE clangd process, each
fixture's exact findings.

  clangd_fixtures.py --clangd build/bin/cuda-lambda-clangd fixtures

Expected: each fixture's CHECK-MESSAGES and CHECK-NOTES, which the drop-in
and the plugin give (ctest fixtures-drop-in, fixtures-plugin); so a fixture
that passes here gives the drop-in's findings through clangd. Compile
commands: a compile_commands.json of clang commands with the flags the
drop-in adds by itself (`cuda-lambda-tidy --print-parse-flags`, --tool, and the
nvcc-compatibility layer) and the fixture's RUN-ARGS, --cuda-host-only
included (the nvcc translation is test/e2e/clangd_lsp.py's). Checks and options:
a .clang-tidy with the fixture's CHECKS and TIDY-ARGS.

Fast: the fixtures of one compile command and one .clang-tidy are edits of
ONE open document, so clangd builds the preamble (the CUDA headers) once per
group and only re-parses the body for each fixture. For that the document
starts with a line `;` before the fixture's text, which ends the preamble
there (each fixture's own #include lines are parsed with its body); lines
are counted back by one. Left out of the comparison: clang's "expanded from
macro" notes, which clangd folds into the finding's own place. A message
that names a place in the document ('lambda at FILE:LINE:COL') names the
fixture's file and line instead.
"""

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from lsp_client import LspClient, findings  # noqa: E402
from cuda_setup import PLUGIN_NVCC_COMPAT_FLAGS, cuda_parse_flags  # noqa: E402
from fixture_format import fixtures_of, matches, skip_reason  # noqa: E402

# fixture (relative to the fixtures root) -> the reason, as in
# docs/integration.md ("Compared with the drop-in and with a stock clangd").
KNOWN_DIFFERENCES = {
    "cuda-lambda-missing-annotation/host-only-annotation.cu":
        "clang's own error (reference to a __host__ operator() from the "
        "kernel), not a cuda-* finding: clangd publishes it without its note "
        "\"'operator()' declared here\", which sits where the check's warning "
        "is",
    "cuda-lambda-host-return-type-query/clang-cannot-form.cu":
        "clang's own error (no type named 'type' in 'std::invoke_result<...>'), "
        "not a cuda-* finding: clangd places it at the start of its range "
        "(column 17, 'typename') where clang-tidy places its caret (column 55, "
        "'type')",
}


def fixture_files(paths):
    """(source, the fixtures root it is named from) of every fixture."""
    for path in paths:
        path = Path(path).resolve()
        sources = [path] if path.is_file() else sorted(path.rglob("*.cu"))
        for source in sources:
            base = next((p for p in source.parents if p.name == "fixtures"),
                        source.parent.parent)
            yield source, base


def tidy_config(fixture):
    """The .clang-tidy text for \\p fixture: its checks and the options of
    its TIDY-ARGS (each a --config={CheckOptions: {...}})."""
    config = {"Checks": fixture.checks}
    for arg in fixture.tidy_args:
        if not arg.startswith("--config="):
            raise ValueError(f"{fixture.path}: TIDY-ARGS {arg!r} has no "
                             ".clang-tidy form")
        for key, value in yaml.safe_load(arg[len("--config="):]).items():
            if isinstance(value, dict):
                config.setdefault(key, {}).update(value)
            else:
                config[key] = value
    return yaml.safe_dump(config)


PREFIX = ";\n"  # ends the preamble: see the docstring


def clang_warnings(fixture):
    """Clang's warnings that the fixture's CHECKS enable by name."""
    return {c.removeprefix("clang-diagnostic-")
            for c in fixture.checks.split(",")
            if c.startswith("clang-diagnostic-") and "*" not in c}


def expected_findings(fixture):
    return sorted(e for e in fixture.expected
                  if not e[3].startswith("expanded from macro"))


def clangd_findings(clangd, groups, jobs, log):
    """{fixture: findings} through one clangd process: each group is one
    document, its fixtures sent one after another as new versions."""
    found = {}
    client = LspClient([clangd, "--log=error", "--background-index=false",
                        f"-j={jobs}"], cwd=log.parent, stderr_path=log)
    try:
        client.initialize(log.parent)
        for document, members in groups:
            for version, fixture in enumerate(members, start=1):
                text = PREFIX + fixture.path.read_text()
                if version == 1:
                    client.open(document, text, version)
                else:
                    client.change(document, text, version)
                _, diags = client.wait_diagnostics(document, version)
                # Where a message names a place in the document ('lambda at
                # FILE:LINE:COL'), the fixture's name and line.
                def place(m, name=fixture.path.name):
                    return f"{name}:{int(m[1]) - 1}:"
                found[(fixture.path, fixture.pass_note)] = sorted(
                    (line - 1, col, sev, re.sub(
                        re.escape(str(document)) + r":(\d+):", place, msg))
                    for line, col, sev, msg
                    in findings(diags, document.as_uri(),
                                clang_warnings=clang_warnings(fixture))
                    if not msg.startswith("expanded from macro"))
            client.close(document)
    finally:
        status = client.shutdown()
    if status != 0:
        print(log.read_text()[-3000:])
        raise SystemExit(f"cuda-lambda-clangd exited with {status}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clangd", required=True)
    parser.add_argument("--tool", help="the cuda-lambda-tidy binary the parse "
                        "flags are asked of (--print-parse-flags)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--skip-silent-including", metavar="REGEX",
                        help="leave out the fixtures that include a header "
                             "matching REGEX and expect no diagnostic")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    args.clangd = str(Path(args.clangd).resolve())

    with tempfile.TemporaryDirectory(prefix="clangd-fixtures-") as tmp:
        root = Path(tmp)
        by_setup, names = {}, {}
        for source, base in fixture_files(args.paths):
            for fixture in fixtures_of(source):
                name = str(source.relative_to(base)) + fixture.pass_note
                reason = skip_reason(fixture, None, args.skip_silent_including)
                if reason:
                    print(f"SKIP {name}: {reason}")
                    continue
                names[(source, fixture.pass_note)] = name
                key = (tuple(fixture.run_args), tidy_config(fixture))
                by_setup.setdefault(key, []).append(fixture)
        groups, entries = [], []
        for number, ((run_args, config), members) in enumerate(
                sorted(by_setup.items())):
            directory = root / f"group-{number}"
            directory.mkdir()
            for fixture in members:
                for header in fixture.path.parent.iterdir():
                    if header.suffix in (".h", ".cuh", ".hpp"):
                        shutil.copy(header, directory)
            (directory / ".clang-tidy").write_text(config)
            document = directory / "fixture.cu"
            document.write_text(PREFIX)
            entries.append({"directory": str(directory), "file": str(document),
                            "arguments": ["clang++", *cuda_parse_flags(args.tool),
                                          *PLUGIN_NVCC_COMPAT_FLAGS, *run_args,
                                          "-fsyntax-only", str(document)]})
            groups.append((document, members))
        (root / "compile_commands.json").write_text(json.dumps(entries))

        start = time.monotonic()
        published = clangd_findings(args.clangd, groups, args.jobs,
                                    root / "clangd.log")
        elapsed = time.monotonic() - start

        failed = known = 0
        for _, members in groups:
            for fixture in members:
                name = names[(fixture.path, fixture.pass_note)]
                want = expected_findings(fixture)
                got = published[(fixture.path, fixture.pass_note)]
                missing = [e for e in want if not any(matches(e, g) for g in got)]
                extra = [g for g in got if not any(matches(e, g) for e in want)]
                if not missing and not extra:
                    print(f"PASS {name} ({len(got)})")
                    continue
                # A known difference covers clang's own diagnostics only: a
                # cuda-* finding missing or extra fails the fixture anyway.
                ours = [d for d in missing + extra if "[cuda-" in str(d)]
                if name in KNOWN_DIFFERENCES and not ours:
                    known += 1
                    print(f"KNOWN {name}: {KNOWN_DIFFERENCES[name]}")
                else:
                    failed += 1
                    print(f"FAIL {name}")
                for e in missing:
                    print(f"  expected, not published: {e}")
                for g in extra:
                    print(f"  published, not expected: {g}")
        total = sum(len(m) for _, m in groups)
        print(f"{total - failed - known} same, {known} known differences, "
              f"{failed} failed; {len(groups)} preambles, {elapsed:.0f} s in "
              f"one clangd process")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
