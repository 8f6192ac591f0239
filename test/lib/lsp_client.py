"""A small LSP client over stdio for the cuda-lambda-clangd tests.

Speaks JSON-RPC with Content-Length framing to a language server it starts,
answers the server's own requests with null, and keeps every
textDocument/publishDiagnostics it receives so that a test can wait for the
diagnostics of one version of one document.
"""

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path


class LspError(Exception):
    pass


class LspClient:
    def __init__(self, command, cwd, stderr_path=None):
        self.stderr = open(stderr_path or os.devnull, "wb")
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr)
        self.next_id = 1
        self.responses = {}
        self.diagnostics = queue.Queue()
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # Framing.
    def _send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(
            b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self):
        out = self.process.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    with self.lock:
                        self.lock.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(out.read(length))
            if "id" in message and "method" in message:
                # A request of the server's (progress, configuration).
                self._send({"jsonrpc": "2.0", "id": message["id"],
                            "result": None})
            elif "id" in message:
                with self.lock:
                    self.responses[message["id"]] = message
                    self.lock.notify_all()
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.diagnostics.put((time.monotonic(), message["params"]))

    # Requests and notifications.
    def request(self, method, params, timeout=300):
        request_id = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method,
                    "params": params})
        deadline = time.monotonic() + timeout
        with self.lock:
            while request_id not in self.responses:
                if self.process.poll() is not None:
                    raise LspError(f"the server exited during {method}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LspError(f"no answer to {method} in {timeout} s")
                self.lock.wait(left)
            response = self.responses.pop(request_id)
        if "error" in response:
            raise LspError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, root):
        self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": Path(root).as_uri(),
            "capabilities": {
                "textDocument": {
                    "publishDiagnostics": {"relatedInformation": True,
                                           "versionSupport": True,
                                           "codeDescriptionSupport": True},
                    "codeAction": {"codeActionLiteralSupport": {
                        "codeActionKind": {"valueSet": ["quickfix"]}}},
                },
            },
        })
        self.notify("initialized", {})

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": Path(path).as_uri(), "languageId": "cuda",
            "version": version, "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": Path(path).as_uri(), "version": version},
            "contentChanges": [{"text": text}]})

    def close(self, path):
        self.notify("textDocument/didClose",
                    {"textDocument": {"uri": Path(path).as_uri()}})

    def wait_diagnostics(self, path, version, timeout=300):
        """The diagnostics published for \\p version of \\p path, and when
        they arrived (time.monotonic())."""
        uri = Path(path).as_uri()
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LspError(f"no diagnostics for {path} version {version} "
                               f"in {timeout} s")
            try:
                when, params = self.diagnostics.get(timeout=min(left, 1.0))
            except queue.Empty:
                if self.process.poll() is not None:
                    raise LspError("the server exited")
                continue
            if params["uri"] == uri and params.get("version") == version:
                return when, params["diagnostics"]

    def shutdown(self):
        try:
            self.request("shutdown", None, timeout=120)
            self.notify("exit", None)
            self.process.wait(timeout=120)
        except (LspError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self.stderr.close()
        return self.process.returncode


def clang_text(message):
    """\\p message as clang prints it: clangd capitalizes it and says when
    a fix-it exists."""
    message = message.split("\n")[0].removesuffix(" (fix available)")
    return message[:1].lower() + message[1:]


def findings(diagnostics, uri, prefix="cuda-", clang_warnings=()):
    """(line, col, severity, message [check]) of the diagnostics of checks
    named \\p prefix..., 1-based as clang prints them, the message as clang
    prints it, and their notes in \\p uri as (line, col, 'note', message).
    Clang's errors, and its warnings named in \\p clang_warnings
    (`gpu-maybe-wrong-side`), are taken too, named as clang-tidy names them
    (clang-diagnostic-error, clang-diagnostic-gpu-maybe-wrong-side)."""
    result = []
    for d in diagnostics:
        code = str(d.get("code", ""))
        if d.get("source") == "clang" and d.get("severity") == 1:
            code = "clang-diagnostic-error"
        elif d.get("source") == "clang" and code.startswith("-W") and \
                code[2:] in clang_warnings:
            code = "clang-diagnostic-" + code[2:]
        elif d.get("source") != "clang-tidy" or not code.startswith(prefix):
            continue
        start = d["range"]["start"]
        severity = {1: "error", 2: "warning"}.get(d.get("severity"), "note")
        result.append((start["line"] + 1, start["character"] + 1, severity,
                       f"{clang_text(d['message'])} [{code}]"))
        for related in d.get("relatedInformation", []):
            pos = related["location"]["range"]["start"]
            if related["location"]["uri"] == uri:
                result.append((pos["line"] + 1, pos["character"] + 1, "note",
                               clang_text(related["message"])))
    return result
