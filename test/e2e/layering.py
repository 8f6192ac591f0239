#!/usr/bin/env python3
"""The house's layering, checked on the sources (docs/CONTRIBUTING.md).

- The pure driver library (tool/CMakeLists.txt's CudaLambdaTidyDriver:
  arguments, toolkit, nvcc translation, compile databases, output) includes
  no frontend header (AST, matchers, preprocessor, Sema, CompilerInstance)
  and nothing of the checks: its files, and the tool headers they include.
- No clang-tidy check lives in tool/: the checks and the pass probe's
  check are under checks/.
- No check reads clang's CUDA attributes itself: utils/ExecutionSpace.h
  says where a function runs and a variable lives (utils/LambdaSyntax.cpp
  reads how an annotation is written, which is syntax, not a space).

Exit status 0 when every rule holds; 1 with one line per breach.
"""

import argparse
import pathlib
import re
import sys

FRONTEND_HEADER = re.compile(
    r'#\s*include\s*[<"](clang/(AST|ASTMatchers|Analysis|Frontend|Lex|Parse|'
    r'Sema|Serialization)/|clang-tidy/ClangTidyCheck\.h|utils/|probe/)')
LOCAL_INCLUDE = re.compile(r'#\s*include\s*"([^"/]+\.h)"')
CHECK_CLASS = re.compile(r'\bpublic\s+(tidy::)?ClangTidyCheck\b')
CUDA_ATTRIBUTE = re.compile(r'\bCUDA(Host|Device|Global|Shared|Constant)Attr\b')


def driver_sources(tool: pathlib.Path) -> list[pathlib.Path]:
    text = (tool / 'CMakeLists.txt').read_text()
    found = re.search(r'add_library\(CudaLambdaTidyDriver STATIC([^)]*)\)', text)
    if not found:
        sys.exit('layering: no CudaLambdaTidyDriver library in tool/CMakeLists.txt')
    return [tool / name for name in found.group(1).split()]


def driver_files(tool: pathlib.Path) -> list[pathlib.Path]:
    """The driver's sources and every tool header they include, transitively."""
    seen: dict[pathlib.Path, None] = {}
    pending = driver_sources(tool)
    for source in list(pending):
        header = source.with_suffix('.h')
        if header.exists():
            pending.append(header)
    while pending:
        path = pending.pop()
        if path in seen or not path.exists():
            continue
        seen[path] = None
        for name in LOCAL_INCLUDE.findall(path.read_text()):
            if (tool / name).exists():
                pending.append(tool / name)
    return list(seen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root', type=pathlib.Path, help='the source tree')
    root = parser.parse_args().root
    tool, checks = root / 'tool', root / 'checks'
    breaches = []
    files = driver_files(tool)
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if FRONTEND_HEADER.search(line):
                breaches.append(f'{path.relative_to(root)}:{number}: the pure '
                                f'driver includes a frontend or checks header: '
                                f'{line.strip()}')
    for path in sorted(tool.glob('*.cpp')) + sorted(tool.glob('*.h')):
        if CHECK_CLASS.search(path.read_text()):
            breaches.append(f'{path.relative_to(root)}: a clang-tidy check in '
                            f'tool/; checks live under checks/')
    for path in sorted(checks.glob('*Check.cpp')) + sorted(checks.glob('*Check.h')):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if CUDA_ATTRIBUTE.search(line):
                breaches.append(f'{path.relative_to(root)}:{number}: a check reads '
                                f'a CUDA attribute; ask utils/ExecutionSpace.h')
    for breach in breaches:
        print(breach)
    print(f'layering: {len(files)} driver files, {len(breaches)} breaches')
    return 1 if breaches else 0


if __name__ == '__main__':
    sys.exit(main())
