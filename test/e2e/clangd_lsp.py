#!/usr/bin/env python3
"""End to end through LSP: cuda-lambda-clangd in a directory that holds only
an nvcc compile_commands.json and a .clang-tidy with Checks: '-*,cuda-*'.

  clangd_lsp.py --clangd build/bin/cuda-lambda-clangd [--fixture F.cu]

Opens the fixture (default: cuda-lambda-reference-capture/explicit-capture.cu)
and expects exactly its CHECK-MESSAGES; asks for the code actions at the
first finding and expects a quick fix whose edit turns the line into its
CHECK-FIXES line; sends the fixed text (that finding gone, the others kept),
then the original text again (every finding back). Then opens a copy that
the database lacks: the nearest entry's nvcc command is borrowed (issue 29),
the same findings. No other configuration:
the toolkit, the CUDA flags and the resource directory come from the binary.
"""

import argparse
import shutil
import sys
import tempfile
import json
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from lsp_client import LspClient, LspError, findings  # noqa: E402
from cuda_setup import CUDA_PATH, NVCC_FLAGS  # noqa: E402
from fixture_format import matches, parse_fixture  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FIXTURE = ROOT / "fixtures/cuda-lambda-reference-capture/explicit-capture.cu"


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def compare(expected, actual, what):
    missing = [e for e in expected if not any(matches(e, a) for a in actual)]
    extra = [a for a in actual if not any(matches(e, a) for e in expected)]
    if missing or extra:
        lines = [f"{what}:"]
        lines += [f"  expected but not published: {e}" for e in missing]
        lines += [f"  published but not expected: {a}" for a in extra]
        fail("\n".join(lines))


def apply_edits(text, edits):
    """\\p text with the LSP TextEdits \\p edits applied (ASCII text)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(pos):
        return offsets[pos["line"]] + pos["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]),
                       reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clangd", required=True)
    parser.add_argument("--fixture", type=Path, default=DEFAULT_FIXTURE)
    args = parser.parse_args()
    args.clangd = str(Path(args.clangd).resolve())
    fixture = parse_fixture(args.fixture)
    expected = [e for e in fixture.expected if e[2] != "note"]
    if not expected or not fixture.fixes:
        fail(f"{args.fixture} has no finding with a fix-it to test")

    with tempfile.TemporaryDirectory(prefix="clangd-lsp-") as tmp:
        tmp = Path(tmp)
        source = tmp / args.fixture.name
        shutil.copy(args.fixture, source)
        (tmp / ".clang-tidy").write_text("Checks: '-*,cuda-*'\n")
        nvcc = [f"{CUDA_PATH}/bin/nvcc", *NVCC_FLAGS, source.name, "-o",
                source.with_suffix(".o").name]
        (tmp / "compile_commands.json").write_text(json.dumps([{
            "directory": str(tmp), "arguments": nvcc, "file": source.name}]))
        original = source.read_text()

        # No background index: the test is about the open file.
        error = None
        client = LspClient([args.clangd, "--log=error",
                            "--background-index=false"], cwd=tmp,
                           stderr_path=tmp / "clangd.log")
        try:
            client.initialize(tmp)
            client.open(source, original, version=1)
            _, diags = client.wait_diagnostics(source, 1)
            uri = source.as_uri()
            published = [f for f in findings(diags, uri) if f[2] != "note"]
            compare(expected, published, "after didOpen")
            print(f"didOpen: {len(published)} findings, as expected")

            # The quick fix of the first finding.
            first = next(d for d in diags
                         if str(d.get("code", "")).startswith("cuda-"))
            actions = client.request("textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": first["range"],
                "context": {"diagnostics": [first]}})
            fixes = [a for a in actions or [] if a.get("kind") == "quickfix"
                     and "edit" in a]
            if not fixes:
                fail(f"no quick fix offered for {first['message']!r}: {actions}")
            edits = fixes[0]["edit"]["changes"][uri]
            fixed = apply_edits(original, edits)
            changed = [line.strip() for old, line in
                       zip(original.split("\n"), fixed.split("\n"))
                       if old != line]
            if not changed or any(line not in fixture.fixes for line in changed):
                fail(f"the quick fix wrote {changed}, which no CHECK-FIXES "
                     "line expects")
            print(f"code action: {fixes[0]['title']!r} writes {changed[0]!r}")

            # The fixed text: that finding gone, the others kept.
            client.change(source, fixed, version=2)
            _, diags = client.wait_diagnostics(source, 2)
            line = first["range"]["start"]["line"] + 1
            compare([e for e in expected if e[0] != line],
                    [f for f in findings(diags, uri) if f[2] != "note"],
                    "after the fix")
            print("didChange (fixed): the finding is gone, the others stay")

            # The original text again: every finding back.
            client.change(source, original, version=3)
            _, diags = client.wait_diagnostics(source, 3)
            compare(expected, [f for f in findings(diags, uri)
                               if f[2] != "note"], "after the edit back")
            print("didChange (original): every finding is back")

            # Issue 29: a file the database lacks (a new file in the editor)
            # borrows the nvcc command of the nearest entry, translated
            # after: the same findings, and the log says which entry.
            unlisted = tmp / ("unlisted" + source.suffix)
            unlisted.write_text(original)
            client.open(unlisted, original, version=1)
            _, diags = client.wait_diagnostics(unlisted, 1)
            compare(expected, [f for f in findings(diags, unlisted.as_uri())
                               if f[2] != "note"], "in a file not in the "
                    "compile database")
            note = (f"note: '{unlisted}' is not in the compile database; "
                    f"using the command of '{source.name}'")
            if note not in (tmp / "clangd.log").read_text():
                fail(f"the log does not say {note!r}; it ends:\n"
                     + (tmp / "clangd.log").read_text()[-3000:])
            print("didOpen (a file not in the database): the same findings")
        except (LspError, OSError) as lsp_error:  # the server exited: its log says why
            error = f"{lsp_error}"
        finally:
            status = client.shutdown()
        if error or status != 0:
            fail(f"{error or 'cuda-lambda-clangd exited with %d' % status}; "
                 "the server's log ends:\n"
                 + (tmp / "clangd.log").read_text()[-6000:])
    print("PASS")


if __name__ == "__main__":
    main()
