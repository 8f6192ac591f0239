"""What the end-to-end test scripts share: collect failures instead of
stopping at the first, run a command capturing its output (or measuring
what it used), and report.

    from harness import check, run, report
    check(result.returncode == 0, "the tool failed on good.cu")
    return report("both passes")
"""

import os
import subprocess
import sys

failures = []

# The hazard the clients' end-to-end tests commit, lint and fix: a '[=]'
# device lambda in a member function captures 'this' (H02), reported at
# 13:35 (the capture default).
THIS_CAPTURE = """\
struct Scale {
  float factor;
  float *values;
  void apply(int n);
};

template <typename F> __global__ void each(F f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

void Scale::apply(int n) {
  each<<<(n + 255) / 256, 256>>>([=] __device__ (int i) { values[i] *= factor; }, n);
}
"""



def fail(message, output=""):
    """Stops the test at once: prints the failure (and output) and exits 1."""
    print(f"FAIL: {message}")
    if output:
        print(output)
    sys.exit(1)


def check(condition, message):
    """Records message as a failure unless condition holds."""
    if not condition:
        failures.append(message)
    return bool(condition)


def run(cmd, **kwargs):
    """Runs cmd to completion (5 minutes at most), capturing text output."""
    kwargs.setdefault("timeout", 300)
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def resource_usage(cmd, env=None):
    """Runs cmd with its output discarded; returns its exit status and
    os.wait4's resource usage (the process and the children it waited
    for: ru_maxrss, ru_minflt, ...)."""
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(cmd, stdout=null, stderr=null, env=env)
        _, status, usage = os.wait4(process.pid, 0)
    return os.waitstatus_to_exitcode(status), usage


def report(name):
    """Prints every failure and a summary line; returns the exit status."""
    for failure in failures:
        print("FAIL: " + failure)
    print(name + ": " + ("FAILED" if failures else "ok"))
    return 1 if failures else 0
