#!/usr/bin/env python3
"""--format=sarif and --format=github on a file with one finding per pass.

  output_formats.py --tool build/bin/cuda-lambda-tidy

The SARIF logs are validated against the published OASIS SARIF 2.1.0 JSON
schema, kept in test/data/schemas/ (the build machines are offline; see
test/data/schemas/README.md), with the validator its "$schema" names, every
error reported with its path. Two deliberately broken copies of a log (a
result whose level is "fatal", a region whose startLine is 0) must be
rejected, so that the validation itself can fail. Besides the schema, this
checks what the schema cannot: rule ids unique, ruleIndex pointing at its
rule, helpUri naming the check's page, the results and their positions, and
fixes that match --export-fixes.
"""

import argparse
import copy
import json
import re
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report, run

HERE = Path(__file__).resolve().parent
FIXTURE = HERE.parent / "data" / "both-passes" / "split.cu"
# Warnings with notes, compiler errors (exit status 1), no fix-its.
NOTES_AND_ERRORS = (HERE.parents[1] / "fixtures" / "cuda-host-variable-in-device-code"
                    / "host-variables.cu")
SCHEMA = HERE.parent / "data" / "schemas" / "sarif-schema-2.1.0.json"
CHECKS = "--checks=-*,cuda-*"


def is_uri(text):
    return isinstance(text, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]*|[^\s:]+", text)


def schema_validator():
    """The validator of the published SARIF 2.1.0 schema, as its $schema says."""
    try:
        import jsonschema
    except ImportError:
        check(False, "python3-jsonschema is not installed (scripts/install-deps.sh)")
        return None
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    check(schema.get("$id", "").endswith("/sarif-schema-2.1.0.json") and
          "2.1.0" in schema.get("title", ""), f"{SCHEMA} is not the SARIF 2.1.0 schema")
    cls = jsonschema.validators.validator_for(schema, default=None)
    check(cls is not None, f"no validator for $schema {schema.get('$schema')}")
    if cls is None:
        return None
    # The published file breaks its own meta-schema in one place, known
    # upstream (oasis-tcs/sarif-spec issue 578): region's "anyOf" sits inside
    # "properties". Anything else wrong with our copy fails here.
    meta = sorted({error_path(e) for e in cls(cls.META_SCHEMA).iter_errors(schema)})
    check(meta == ["definitions/region/properties/anyOf"],
          f"the schema copy breaks its meta-schema unexpectedly: {meta}")
    checker = getattr(cls, "FORMAT_CHECKER", None)
    return cls(schema, format_checker=checker)


def error_path(error):
    return "/".join(str(p) for p in error.absolute_path) or "(root)"


def schema_errors(validator, log):
    errors = sorted(validator.iter_errors(log), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{error_path(e)}: {e.message}" for e in errors]


def validate(validator, log, what):
    """Every schema error of the log, each with its path, is a failure."""
    if validator is None:
        return
    for error in schema_errors(validator, log):
        check(False, f"{what} does not validate against the SARIF 2.1.0 schema: {error}")


def broken_copies_rejected(validator, log):
    """The validation must be able to fail: two broken copies of the log."""
    if validator is None or not log.get("runs") or not log["runs"][0].get("results"):
        check(validator is None, "no result to break in the SARIF log")
        return
    fatal = copy.deepcopy(log)
    fatal["runs"][0]["results"][0]["level"] = "fatal"
    line_zero = copy.deepcopy(log)
    region = line_zero["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    region["startLine"] = 0
    for broken, path in ((fatal, "runs/0/results/0/level"),
                         (line_zero, "runs/0/results/0/locations/0/physicalLocation/region/startLine")):
        errors = schema_errors(validator, broken)
        check(any(e.startswith(path + ": ") for e in errors),
              f"a broken SARIF log was not rejected at {path}: {errors}")


def sarif_log(tool, source, expected_status):
    result = run([tool, CHECKS, "--format=sarif", str(source)])
    check(result.returncode == expected_status,
          f"--format=sarif on {source.name} exited {result.returncode}: {result.stderr}")
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError as e:
        check(False, f"not JSON ({e}):\n{result.stdout[:2000]}")
        return None


def sarif_notes_and_errors(tool, validator):
    """Warnings with relatedLocations, compiler errors, upstream rule URIs."""
    log = sarif_log(tool, NOTES_AND_ERRORS, 1)
    if log is None:
        return
    validate(validator, log, NOTES_AND_ERRORS.name)
    results = log["runs"][0].get("results", [])
    levels = {r.get("level") for r in results}
    check(levels == {"warning", "error"}, f"levels {levels}")
    check(any(r.get("relatedLocations") for r in results), "no relatedLocations")
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    check("clang-diagnostic-error" in rules and rules["clang-diagnostic-error"]["helpUri"]
          .startswith("https://clang.llvm.org/"), f"rules {sorted(rules)}")


def sarif(tool):
    validator = schema_validator()
    sarif_notes_and_errors(tool, validator)
    log = sarif_log(tool, FIXTURE, 0)
    if log is None:
        return
    validate(validator, log, FIXTURE.name)
    broken_copies_rejected(validator, log)
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
    return report("output formats")


if __name__ == "__main__":
    sys.exit(main())
