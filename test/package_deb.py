#!/usr/bin/env python3
"""CPack's packages: builds the .deb and the .tar.gz of a configured and built
tree into a temporary directory and checks what they hold. Never installs.

  package_deb.py --build BUILD_DIR --version VERSION

1. `cpack -G "DEB;TGZ"` succeeds and writes cuda-lambda-tidy_<v>_<arch>.deb
   and cuda-lambda-tidy-<v>-Linux.tar.gz.
2. `dpkg-deb -I`: package name, version, the LLVM 22 libraries and clang's
   headers among the dependencies.
3. `dpkg-deb -c`: the binary, the launcher symlink, the plugin, the
   nvcc-compatibility header and the documentation, all below /usr.
4. The binary unpacked from the .deb (`dpkg-deb -x`, not installed) runs:
   `--version` reports the version.
5. The tarball holds the same files below cuda-lambda-tidy-<v>-Linux/.

Exits 77 (skipped) when cpack or dpkg-deb is missing.
"""

import argparse
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from harness import fail

SKIP = 77
FILES = [
    "bin/cuda-lambda-tidy",
    "bin/cuda-lambda-tidy-launcher",
    "lib/cuda-lambda-tidy/libCudaLambdaTidy.so",
    "share/cuda-lambda-tidy/cuda_lambda_tidy_nvcc_compat.h",
    "share/doc/cuda-lambda-tidy/README.md",
    "share/doc/cuda-lambda-tidy/docs/integration.md",
    "share/doc/cuda-lambda-tidy/docs/checks/cuda-lambda-this-capture.md",
]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--version", required=True)
    args = parser.parse_args()
    for tool in ("cpack", "dpkg-deb"):
        if not shutil.which(tool):
            print(f"SKIP: {tool} not found")
            return SKIP
    build = Path(args.build).resolve()
    with tempfile.TemporaryDirectory(prefix="package-deb-") as tmp:
        tmp = Path(tmp)
        result = run(["cpack", "-G", "DEB;TGZ", "--config",
                      str(build / "CPackConfig.cmake"), "-B", str(tmp / "out")])
        if result.returncode != 0:
            fail("cpack failed", result.stdout)
        debs = list((tmp / "out").glob("cuda-lambda-tidy_*.deb"))
        tars = list((tmp / "out").glob("cuda-lambda-tidy-*.tar.gz"))
        if len(debs) != 1 or len(tars) != 1:
            fail("cpack did not write one .deb and one .tar.gz", result.stdout)
        deb, tar = debs[0], tars[0]
        if not deb.name.startswith(f"cuda-lambda-tidy_{args.version}_"):
            fail(f"unexpected package file name {deb.name}")
        print(f"{deb.name}: {deb.stat().st_size / 1e6:.1f} MB; "
              f"{tar.name}: {tar.stat().st_size / 1e6:.1f} MB")

        info = run(["dpkg-deb", "-I", str(deb)]).stdout
        fields = dict(re.findall(r"^ (\S+): (.*)$", info, re.M))
        if fields.get("Package") != "cuda-lambda-tidy" or \
                fields.get("Version") != args.version:
            fail("dpkg-deb -I: wrong package or version", info)
        depends = fields.get("Depends", "")
        for dep in ("libclang-cpp22", "libllvm22", "libclang-common-22-dev"):
            if dep not in depends:
                fail(f"dpkg-deb -I: {dep} is not a dependency", info)
        print(f"Depends: {depends}")

        listing = run(["dpkg-deb", "-c", str(deb)]).stdout
        paths = {}
        for line in listing.splitlines():
            m = re.match(r"^(\S+)\s+\S+\s+\d+\s+\S+\s+\S+\s+\./(\S*?)/?(?: -> (\S+))?$", line)
            if m:
                paths[m[2]] = (m[1], m[3])
        for rel in FILES:
            if f"usr/{rel}" not in paths:
                fail(f"dpkg-deb -c: usr/{rel} is missing", listing)
        mode, target = paths["usr/bin/cuda-lambda-tidy-launcher"]
        if not mode.startswith("l") or target != "cuda-lambda-tidy":
            fail("dpkg-deb -c: the launcher is not a symlink to cuda-lambda-tidy", listing)
        outside = [p for p in paths if p and p != "usr" and not p.startswith("usr/")]
        if outside:
            fail(f"dpkg-deb -c: files outside /usr: {outside}")
        print(f"dpkg-deb -c: {len(paths)} entries, all below /usr")

        root = tmp / "root"
        if run(["dpkg-deb", "-x", str(deb), str(root)]).returncode != 0:
            fail("dpkg-deb -x failed")
        version = run([str(root / "usr" / "bin" / "cuda-lambda-tidy"), "--version"]).stdout
        if f"cuda-lambda-tidy version {args.version}" not in version:
            fail("the packaged binary does not report its version", version)
        print("the packaged binary runs: " + version.strip().splitlines()[-2].strip())

        top = f"cuda-lambda-tidy-{args.version}-Linux"
        with tarfile.open(tar) as archive:
            names = set(archive.getnames())
        for rel in FILES:
            if f"{top}/{rel}" not in names:
                fail(f"{tar.name}: {top}/{rel} is missing")
        print(f"{tar.name}: {len(names)} entries below {top}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
