#!/usr/bin/env python3
"""Every hetvp command that README.md and docs/*.md give runs as written (issue #42).

A command is a `hetvp ...`, `./build/hetvp ...` or `build/hetvp ...` line of a fenced shell block, or
an inline `code` span of that form with a subcommand and its arguments. It runs from a scratch
folder that looks like the repository (configs/, examples/, bench/, ... link to the sources, build/
to the build), one folder per document so that a command can use the files an earlier one of the
same document wrote; `hetvp` is the build's program. It must end with status 0, or the status
EXPECTED_STATUS gives (a document that shows an error), within TIMEOUT seconds, with no sanitizer
report.

Not run, each for a reason printed in the test's output:
  - a name rather than a command (`hetvp run` in a sentence) or a synopsis with placeholders
    (CONFIG, FILE, N, [...], <chip>, A|B, ...);
  - a command that needs a file the reader makes first (their own .qasm, an edited .fuc3, a plugin
    built by another step): NEEDS_FILE;
  - a command that takes longer than ~10 s, or runs a sweep or a benchmark: LONG.

usage: doc_commands.py SOURCE_DIR BUILD_DIR [--list]
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60  # s: the documented commands take under ~10 s; the margin is for a loaded machine

# Commands whose documented outcome is an error: exact command text -> exit status.
EXPECTED_STATUS = {
    "hetvp check configs/default.yaml --set gpu0.compute.tcp.size=1GiB": 2,
    "hetvp check /dev/zero": 2,
    # docs/falcon.md: GM107's firmware on GK208's model stops (an unmodelled strand unit), as the table says
    "hetvp run configs/gk208_nouveau.yaml --workload boot --set workload.args.mcu.falcon_hub_image="
    "build/nouveau-fw/hubgm107.fuc5.h --set workload.args.mcu.falcon_gpc_image=build/nouveau-fw/gpcgm107.fuc5.h": 1,
    # docs/contexts.md's error table: out of VRAM
    "hetvp run configs/default.yaml --workload gpu_bench --set workload.args.program=memcpy "
    "--set workload.args.size=67108864 --set gpu0.vram.size=64MiB": 1,
}

# Files the reader makes before the command (not shipped): a substring of the command -> reason.
NEEDS_FILE = {
    "build-plugin/": "the plugin built by the line before it (tests/plugin/plugin_example.sh builds and runs it)",
    "my.qasm": "the reader's own QPU program",
    "prog.hex": "the reader's own .hex program (examples/qpu_hex/run.sh runs the shipped one: ctest qpu_hex_example)",
    "my_hub": "the reader's edited firmware",
    "my_gr/": "the reader's edited firmware source",
    "hub.bin": "the reader's raw Falcon images",
    "k.sm_30.ptx": "the reader's own kernel (examples/gpu_kernel: ctest gpu_kernel_example_installed)",
    "mul32.yaml": "the reader's RTL block configuration (docs/rtl_blocks.md walks through it)",
}

# Longer than ~10 s on the reference machine, or a sweep/benchmark: a substring -> reason.
LONG = {
    "hetvp sweep": "a sweep: many runs (tests/sweep/*.sh run sweeps)",
    "workload.args.n=300000": "a 300,000-element coherence job (tens of seconds)",
    "workload.args.width=1024": "a 1024x1024 transpose (benchmark)",
    "workload.args.size=10000000": "10^7 loop iterations (benchmark)",
    "workload.args.runs=100": "100 runs (#41's must-show; docs/benchmarks.md has its time)",
    "workload.args.size=248": "mmul 248 (benchmark)",
    "--workload mcu_bench": "the microcontroller benchmark (seconds per target)",
    "configs/gdev2012.yaml --csv": "every Gdev 2012 point (benchmark)",
    "qpu_sgemm": "the QPU SGEMM benchmark",
    "--set workload.args.size=\"1 MiB\"": "a 1 MiB CRC through RTL (benchmark)",
}

PLACEHOLDER = re.compile(r"(\b[A-Z][A-Z_]*\b|\.\.\.|…|\[|<|\|)")  # CONFIG, FILE.json, W, [...], <chip>, a|b
SUBCOMMANDS = ("run", "check", "list", "schema", "registers", "stats-doc", "iss", "debug", "sweep", "falcon-as",
               "--version")
BARE_OK = {"list", "registers", "stats-doc", "schema", "--version"}  # complete commands without arguments


def commands(path):
    """(command, where) pairs of one document, in order."""
    text = open(path, encoding="utf-8").read()
    out = []
    fenced = re.compile(r"```(?:sh|bash|console)?\n(.*?)```", re.S)
    for m in fenced.finditer(text):
        lines = m.group(1).split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            start = i
            # a backslash continues the line; so does a quoted string left open
            while (line.rstrip().endswith("\\") or line.count("'") % 2) and i + 1 < len(lines):
                i += 1
                line = (line.rstrip()[:-1] if line.rstrip().endswith("\\") else line.rstrip()) + " " + lines[i].strip()
            i += 1
            line = re.sub(r"\s+#.*$", "", line).strip()  # a trailing comment
            if re.match(r"(\./build/|build/)?hetvp\s", line + " "):
                out.append((line, "%s:%d" % (os.path.basename(path), text[: m.start(1)].count("\n") + start + 1)))
    prose = fenced.sub("", text)
    for m in re.finditer(r"`((?:\./build/|build/)?hetvp [^`]+)`", prose):
        cmd = " ".join(m.group(1).split())
        line = text[: max(text.find(m.group(0)), 0)].count("\n") + 1
        out.append((cmd, "%s:%d" % (os.path.basename(path), line)))
    return out


def why_not_run(cmd):
    words = cmd.split()
    sub = words[1] if len(words) > 1 else ""
    if sub not in SUBCOMMANDS:
        return "not a command (a name in prose)"
    if len(words) == 2 and sub not in BARE_OK:
        return "a name, not a command"
    body = " ".join(words[2:])
    # `hetvp iss --misaligned emulate` in a sentence: options without the file the command needs
    if sub in ("run", "check", "iss", "debug", "sweep", "falcon-as") and words[2:] != ["--help"] \
            and words[2].startswith("-") and not any("/" in w or "." in w for w in words[2:]):
        return "an option named in prose, not a command"
    if PLACEHOLDER.search(re.sub(r"'[^']*'", "", body)) or cmd.endswith(":"):  # quoted text is the command's own
        return "a synopsis with placeholders"
    for key, reason in NEEDS_FILE.items():
        if key in cmd:
            return "needs a file made first: " + reason
    for key, reason in LONG.items():
        if key in cmd:
            return "long: " + reason
    return None


def scratch_for(src, build, root, doc):
    d = os.path.join(root, re.sub(r"\W", "_", doc))
    os.makedirs(d, exist_ok=True)
    for name in os.listdir(src):
        if name.startswith(".") or name.startswith("build") or name in ("README.md",):
            continue
        if not os.path.exists(os.path.join(d, name)):
            os.symlink(os.path.join(src, name), os.path.join(d, name))
    if not os.path.exists(os.path.join(d, "build")):
        os.symlink(build, os.path.join(d, "build"))
    return d


def main():
    src, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    list_only = "--list" in sys.argv[3:]
    hetvp = os.path.join(build, "hetvp")
    docs = [os.path.join(src, "README.md")] + sorted(
        os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(src, "docs")) for f in fs if f.endswith(".md"))
    ran = failed = 0
    skipped = {}
    seen = set()
    with tempfile.TemporaryDirectory(prefix="hetvp-doc-commands-") as root:
        for doc in docs:
            rel = os.path.relpath(doc, src)
            for cmd, where in commands(doc):
                if cmd in seen:
                    continue
                seen.add(cmd)
                reason = why_not_run(cmd)
                if reason:
                    skipped.setdefault(reason.split(":")[0], []).append("%s  %s  (%s)" % (where, cmd, reason))
                    continue
                if list_only:
                    print("run  %s  %s" % (where, cmd))
                    continue
                cwd = scratch_for(src, build, root, rel)
                argv = re.sub(r"^(\./build/|build/)?hetvp\b", lambda _: shlex.quote(hetvp), cmd)
                t0 = time.time()
                try:
                    p = subprocess.run(["bash", "-c", argv], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
                    status, out = p.returncode, p.stdout + p.stderr
                except subprocess.TimeoutExpired:
                    status, out = "timeout", ""
                dt = time.time() - t0
                want = EXPECTED_STATUS.get(cmd, 0)
                bad = status != want or "Sanitizer" in out or "runtime error:" in out
                ran += 1
                print("%s %5.1f s  %s  %s" % ("FAIL" if bad else "ok  ", dt, where, cmd))
                if bad:
                    failed += 1
                    print("     status %s (expected %s)\n%s" % (status, want, "\n".join("     | " + l for l in out.splitlines()[-15:])))
    for reason, items in sorted(skipped.items()):
        print("\nnot run (%s): %d" % (reason, len(items)))
        for it in items:
            print("  " + it)
    print("\n%d documented commands run, %d failed; %d not run" % (ran, failed, sum(len(v) for v in skipped.values())))
    return 1 if failed or (ran == 0 and not list_only) else 0


if __name__ == "__main__":
    sys.exit(main())
