#!/usr/bin/env python3
"""--format=sarif and --format=github on a file with one finding per pass.

  output_formats.py --tool build/bin/cuda-lambda-tidy

The published SARIF 2.1.0 JSON schema cannot be fetched on the build
machines, so this checks the properties SARIF 2.1.0 requires of what we
write (sarifLog.version/runs, run.tool.driver.name, result.message.text,
rule ids unique, ruleIndex pointing at its rule, 1-based regions, fixes with
artifactChanges/replacements and deletedRegion), plus that the fixes match
--export-fixes.
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "both-passes" / "split.cu"
CHECKS = "--checks=-*,cuda-*"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def is_uri(text):
    return isinstance(text, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]*|[^\s:]+", text)


def sarif(tool):
    result = run([tool, CHECKS, "--format=sarif", str(FIXTURE)])
    check(result.returncode == 0, f"--format=sarif exited {result.returncode}: {result.stderr}")
    try:
        log = json.loads(result.stdout)
    except json.JSONDecodeError as e:
        check(False, f"not JSON ({e}):\n{result.stdout[:2000]}")
        return
    check(log.get("version") == "2.1.0", "version must be 2.1.0")
    check(isinstance(log.get("runs"), list) and len(log["runs"]) == 1, "one run")
    run_ = log["runs"][0]
    driver = run_.get("tool", {}).get("driver", {})
    check(driver.get("name") == "cuda-lambda-tidy", "tool.driver.name")
    rules = driver.get("rules", [])
    ids = [r.get("id") for r in rules]
    check(len(ids) == len(set(ids)) and all(ids), f"rule ids unique and set: {ids}")
    for rule in rules:
        check(is_uri(rule.get("helpUri")), f"helpUri is not a URI: {rule.get('helpUri')}")
        if rule["id"].startswith("cuda-"):
            path = rule["helpUri"].removeprefix("file://")
            check(rule["helpUri"].startswith("file://") and Path(path).exists(),
                  f"helpUri does not name the check's documentation: {rule['helpUri']}")
    results = run_.get("results", [])
    check(len(results) == 2, f"two results expected, got {len(results)}")
    lines = []
    for r in results:
        check(r.get("ruleId") in ids, f"ruleId {r.get('ruleId')} not a rule")
        check(rules[r.get("ruleIndex", -1)]["id"] == r.get("ruleId"), "ruleIndex")
        check(r.get("level") in ("none", "note", "warning", "error"), f"level {r.get('level')}")
        check(isinstance(r.get("message", {}).get("text"), str), "message.text")
        loc = r["locations"][0]["physicalLocation"]
        check(is_uri(loc["artifactLocation"]["uri"]), "artifactLocation.uri")
        check(loc["artifactLocation"]["uri"].endswith("/split.cu"), "the result's file")
        region = loc["region"]
        check(region["startLine"] >= 1 and region["startColumn"] >= 1, "1-based region")
        lines.append((region["startLine"], region["startColumn"]))
        fixes = r.get("fixes", [])
        check(len(fixes) == 1, f"one fix per result: {fixes}")
        for fix in fixes:
            for change in fix["artifactChanges"]:
                check(is_uri(change["artifactLocation"]["uri"]), "fix artifact uri")
                check(len(change["replacements"]) >= 1, "replacements")
                for rep in change["replacements"]:
                    region = rep["deletedRegion"]
                    check(region["charOffset"] >= 0 and region["charLength"] >= 0,
                          "deletedRegion")
                    check(rep["insertedContent"]["text"] == "=", "insertedContent")
                    source = FIXTURE.read_bytes()
                    check(source[region["charOffset"]:region["charOffset"] +
                                 region["charLength"]] == b"&",
                          "the replacement's region is not the '&'")
    check(lines == [(8, 18), (15, 16)], f"results at {lines}")


def github(tool):
    result = run([tool, CHECKS, "--format=github", str(FIXTURE)])
    check(result.returncode == 0, f"--format=github exited {result.returncode}")
    got = result.stdout.splitlines()
    check(len(got) == 2, f"two annotations expected:\n{result.stdout}")
    for line, (row, col) in zip(got, [(8, 18), (15, 16)]):
        check(re.fullmatch(rf"::warning file=[^,]*split\.cu,line={row},col={col},"
                           r"title=cuda-lambda-reference-capture::.*'\[=\]'", line),
              f"not a GitHub annotation: {line}")
    bad = run([tool, "--format=xml", str(FIXTURE)])
    check(bad.returncode == 2, f"--format=xml exited {bad.returncode}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    tool = parser.parse_args().tool
    sarif(tool)
    github(tool)
    for failure in failures:
        print("FAIL: " + failure)
    print("output formats: " + ("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
