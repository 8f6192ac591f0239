#!/usr/bin/env python3
"""CPack's packages: builds the .deb and the .tar.gz of a configured and built
tree into a temporary directory and checks what they hold. Never installs.

  package_deb.py --build BUILD_DIR --version VERSION

1. `cpack -G "DEB;TGZ"` succeeds and writes cuda-lambda-tidy_<v>_<arch>.deb,
   with cuda-lambda-clangd built cuda-lambda-tidy-clangd_<v>_<arch>.deb, and
   cuda-lambda-tidy-<v>-Linux.tar.gz.
2. `dpkg-deb -I`: package name, version, the LLVM 22 libraries and clang's
   headers among the dependencies; cuda-lambda-tidy depends on nothing of
   gRPC, protobuf or abseil, cuda-lambda-tidy-clangd on all three.
3. `dpkg-deb -c`: the binary, the launcher symlink, the plugin, the
   nvcc-compatibility header and the documentation, all below /usr, in
   cuda-lambda-tidy; bin/cuda-lambda-clangd alone in cuda-lambda-tidy-clangd.
4. The binaries unpacked from the .debs (`dpkg-deb -x`, not installed) run:
   `--version` reports the version.
5. The tarball holds both packages' files below cuda-lambda-tidy-<v>-Linux/.

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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
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
        clangd_debs = list((tmp / "out").glob("cuda-lambda-tidy-clangd_*.deb"))
        if len(debs) != 1 or len(tars) != 1:
            fail("cpack did not write one .deb and one .tar.gz", result.stdout)
        deb, tar = debs[0], tars[0]
        clangd_built = (build / "bin" / "cuda-lambda-clangd").exists()
        if len(clangd_debs) != (1 if clangd_built else 0):
            fail(f"cpack wrote {len(clangd_debs)} cuda-lambda-tidy-clangd packages "
                 f"(cuda-lambda-clangd {'built' if clangd_built else 'not built'})",
                 result.stdout)
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
        for dep in ("libgrpc", "libprotobuf", "libabsl"):
            if dep in depends:
                fail(f"dpkg-deb -I: the linter alone depends on {dep}", info)
        print(f"cuda-lambda-tidy Depends: {depends}")

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
        if "usr/bin/cuda-lambda-clangd" in paths:
            fail("dpkg-deb -c: cuda-lambda-clangd is in the linter's package")
        print(f"dpkg-deb -c: {len(paths)} entries, all below /usr")

        files = list(FILES)
        if clangd_debs:
            clangd_deb = clangd_debs[0]
            info = run(["dpkg-deb", "-I", str(clangd_deb)]).stdout
            fields = dict(re.findall(r"^ (\S+): (.*)$", info, re.M))
            if fields.get("Package") != "cuda-lambda-tidy-clangd" or \
                    fields.get("Version") != args.version:
                fail("dpkg-deb -I: wrong clangd package or version", info)
            clangd_depends = fields.get("Depends", "")
            for dep in ("libclang-cpp22", "libllvm22", "libclang-common-22-dev",
                        "libgrpc++", "libgrpc", "libprotobuf", "libabsl"):
                if dep not in clangd_depends:
                    fail(f"dpkg-deb -I: {dep} is not a dependency of the clangd package", info)
            print(f"cuda-lambda-tidy-clangd Depends: {clangd_depends}")
            listing = run(["dpkg-deb", "-c", str(clangd_deb)]).stdout
            entries = [m[1] for m in re.finditer(r"\./(\S*?)/?(?: -> \S+)?$", listing, re.M)]
            regular = [e for e in entries if e and not e.endswith("/") and
                       e not in ("usr", "usr/bin")]
            if regular != ["usr/bin/cuda-lambda-clangd"]:
                fail(f"dpkg-deb -c: the clangd package holds {regular}", listing)
            root = tmp / "clangd-root"
            if run(["dpkg-deb", "-x", str(clangd_deb), str(root)]).returncode != 0:
                fail("dpkg-deb -x failed on the clangd package")
            version = run([str(root / "usr/bin/cuda-lambda-clangd"), "--version"]).stdout
            if "clangd" not in version:
                fail("the packaged cuda-lambda-clangd does not run", version)
            print(f"{clangd_deb.name}: {clangd_deb.stat().st_size / 1e6:.1f} MB, "
                  f"the packaged clangd runs")
            files.append("bin/cuda-lambda-clangd")

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
        for rel in files:
            if f"{top}/{rel}" not in names:
                fail(f"{tar.name}: {top}/{rel} is missing")
        print(f"{tar.name}: {len(names)} entries below {top}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
