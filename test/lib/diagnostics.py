"""The one pattern of a diagnostic as clang-tidy (and clang) print it:

    file:line:col: severity: message [check,alias]

`text` is everything after the severity; `msg` is that without the final
`[check]` list, which is `check` (None when the line has none). Compiled
with re.M: `DIAGNOSTIC.finditer(output)` walks a whole output,
`DIAGNOSTIC.match(line)` reads one line."""

import re

DIAGNOSTIC = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<sev>warning|error|fatal error|note|remark): "
    r"(?P<text>(?P<msg>.*?)(?: \[(?P<check>[^\]\s]+)\])?)$", re.M)


def findings(output):
    """The warnings and errors in \\p output (notes and remarks left out)."""
    return [m for m in DIAGNOSTIC.finditer(output)
            if m["sev"] in ("warning", "error")]
