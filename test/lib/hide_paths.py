"""Runs a command with paths hidden from it: a private mount namespace
(`unshare -m`, as root) with an empty tmpfs mounted over each directory and
/dev/null bound over each file. Used by install_e2e.py and static_binary.py
to show that a binary needs nothing below those paths."""

import shlex
import subprocess

_SCRIPT = r'''
set -e
for p in "$@"; do
  [ "$p" = "--" ] && break
  if [ -d "$p" ]; then mount -t tmpfs -o ro,size=1m cuda-lambda-tidy-hidden "$p"
  elif [ -e "$p" ]; then mount --bind /dev/null "$p"
  fi
done
while [ "$1" != "--" ]; do shift; done
shift
exec "$@"
'''


def can_hide():
    """Whether this process may make a mount namespace and mount in it."""
    try:
        probe = subprocess.run(
            ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /mnt && umount /mnt"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as error:
        return False, str(error)
    return probe.returncode == 0, probe.stdout.strip()


def run_hidden(hidden, cmd, **kw):
    """subprocess.run(cmd) with every path of `hidden` out of its reach."""
    full = ["unshare", "-m", "sh", "-c", _SCRIPT, "hide", *hidden, "--", *cmd]
    return subprocess.run(full, **kw)


def describe(hidden):
    return " ".join(shlex.quote(p) for p in hidden)
