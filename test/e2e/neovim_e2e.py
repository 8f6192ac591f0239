#!/usr/bin/env python3
"""Neovim (Debian's `neovim`, 0.7.2 on Debian 12; scripts/install-deps.sh
installs it) headless against cuda-lambda-clangd, configured with the
snippet of docs/integration.md for the running version (0.7-0.10:
`vim.lsp.start_client`/`vim.lsp.start` in a FileType autocmd; 0.11 and
later: `vim.lsp.config`), read from the docs themselves:

  neovim_e2e.py --clangd build/bin/cuda-lambda-clangd [--nvim nvim]

A project with an nvcc compile_commands.json and a .clang-tidy
(Checks: '-*,cuda-*'); Neovim opens src/scale.cu, whose `[=]` lambda
captures `this`:

1. the cuda-lambda-this-capture diagnostic arrives (polled, 60 s at most);
2. `vim.lsp.buf.code_action()` on its line, the quick fix chosen through
   `vim.ui.select` as a user would, turns `[=]` into `[=, *this]`;
3. the diagnostic clears (polled).

Fails (never skips) when nvim is missing.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import THIS_CAPTURE, check, fail, report

ROOT = Path(__file__).resolve().parents[2]
CUDA_PATH = os.environ.get("CUDA_PATH") or "/usr/local/cuda"

HAZARD = THIS_CAPTURE

# Drives the editor: waits for the finding, applies the quick fix as
# `vim.lsp.buf.code_action()` offers it, waits for the finding to go, and
# writes what it saw to RESULT (JSON). Every wait is polled with a limit.
DRIVER = r"""
local result = { steps = {} }
local function finish()
  local f = io.open(os.getenv('RESULT'), 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qall!')
end
local function step(name, ok, extra)
  table.insert(result.steps, { name = name, ok = ok, extra = extra or '' })
  return ok
end
local function findings(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == 'cuda-lambda-this-capture' then table.insert(found, d) end
  end
  return found
end
local ok, err = pcall(function()
  local buf = vim.api.nvim_get_current_buf()
  local t0 = vim.loop.hrtime()
  local arrived = vim.wait(60000, function() return #findings(buf) > 0 end, 100)
  local d = findings(buf)[1]
  if not step('finding arrives', arrived,
              string.format('%.1f s, filetype %s, clients %d', (vim.loop.hrtime() - t0) / 1e9,
                            vim.bo[buf].filetype, #vim.tbl_keys(vim.lsp.buf_get_clients(buf)))) then
    return
  end
  step('finding position', d.lnum == 12 and d.col == 34, d.lnum .. ':' .. d.col .. ' ' .. d.message)
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local chosen = nil
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      local action = item[2] or item.action or item
      if action.title and action.title:find('this', 1, true) then
        chosen = action.title
        return on_choice(item)
      end
    end
    on_choice(nil)
  end
  vim.lsp.buf.code_action()
  local applied = vim.wait(30000, function()
    return vim.api.nvim_buf_get_lines(buf, 12, 13, false)[1]:find('[=, *this]', 1, true) ~= nil
  end, 100)
  if not step('quick fix applied', applied, tostring(chosen) .. ' | ' ..
              vim.api.nvim_buf_get_lines(buf, 12, 13, false)[1]) then
    return
  end
  t0 = vim.loop.hrtime()
  local cleared = vim.wait(60000, function() return #findings(buf) == 0 end, 100)
  step('finding clears', cleared, string.format('%.1f s', (vim.loop.hrtime() - t0) / 1e9))
end)
if not ok then step('driver error', false, tostring(err)) end
finish()
"""


def docs_snippet(version):
    """The Lua block of docs/integration.md for Neovim \\p version."""
    text = (ROOT / "docs/integration.md").read_text()
    blocks = re.findall(r"```lua\n(.*?)```", text, re.S)
    wanted = "vim.lsp.config(" if version >= (0, 11) else "vim.lsp.start_client("
    for block in blocks:
        if wanted in block:
            return block
    fail(f"docs/integration.md has no Lua block with {wanted}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clangd", required=True)
    parser.add_argument("--nvim", default="nvim")
    options = parser.parse_args()
    clangd = Path(options.clangd).resolve()
    nvim = shutil.which(options.nvim)
    if not nvim:
        fail("nvim is not installed (neovim; bash scripts/install-deps.sh)")
    banner = subprocess.run([nvim, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"NVIM v(\d+)\.(\d+)", banner)
    if not match:
        fail(f"cannot read Neovim's version:\n{banner}")
    version = (int(match.group(1)), int(match.group(2)))
    start = time.monotonic()

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        project = tmp / "project"
        (project / "src").mkdir(parents=True)
        (project / "build").mkdir()
        (project / "src" / "scale.cu").write_text(HAZARD)
        (project / ".clang-tidy").write_text("Checks: '-*,cuda-*'\n")
        db = [{"directory": str(project / "build"),
               "command": f"{CUDA_PATH}/bin/nvcc -forward-unknown-to-host-compiler "
                          f"-std=c++17 --extended-lambda "
                          f"--generate-code=arch=compute_80,code=[compute_80,sm_80] "
                          f"-x cu -c {project}/src/scale.cu -o scale.cu.o",
               "file": str(project / "src" / "scale.cu")}]
        (project / "build" / "compile_commands.json").write_text(json.dumps(db))
        init = tmp / "init.lua"
        init.write_text(docs_snippet(version))
        driver = tmp / "driver.lua"
        driver.write_text(DRIVER)
        result_file = tmp / "result.json"
        home = tmp / "home"
        home.mkdir()
        # The docs' command is `cuda-lambda-clangd`, found on PATH.
        env = dict(os.environ, PATH=f"{clangd.parent}{os.pathsep}{os.environ['PATH']}",
                   HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                   XDG_DATA_HOME=str(home / ".local/share"),
                   XDG_STATE_HOME=str(home / ".local/state"),
                   XDG_CACHE_HOME=str(home / ".cache"), RESULT=str(result_file))
        try:
            run = subprocess.run(
                [nvim, "--headless", "-n", "-i", "NONE", "-u", str(init),
                 "src/scale.cu", "-c", f"luafile {driver}"],
                cwd=project, env=env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                timeout=180)
        except subprocess.TimeoutExpired as e:
            fail(f"nvim did not finish in 180 s:\n{e.stdout}")
        if not result_file.exists():
            fail(f"nvim wrote no result (status {run.returncode}):\n{run.stdout}")
        steps = json.loads(result_file.read_text())["steps"]
        for s in steps:
            print(f"{'ok  ' if s['ok'] else 'FAIL'} {s['name']}: {s['extra']}")
            check(s["ok"], f"{s['name']}: {s['extra']}")
        names = [s["name"] for s in steps]
        check(names[-1:] == ["finding clears"], f"not every step ran: {names}\n{run.stdout}")

    print(f"Neovim {version[0]}.{version[1]} end to end: {time.monotonic() - start:.1f} s")
    return report("neovim")


if __name__ == "__main__":
    sys.exit(main())
