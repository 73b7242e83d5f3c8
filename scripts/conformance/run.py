#!/usr/bin/env python3
"""Runs the ONNX backend conformance set through aicc and writes the table.

    scripts/conformance/run.py {import,cpu,cuda,cuda-compile,rocm-compile,all}
        [--aicc build/bin/aicc] [--aicc-run build/bin/aicc-run] [--jobs N]
        [--filter SUBSTRING[,SUBSTRING...]] [--shard K/N] [--doc docs/conformance.md]
        [--check-expected]
        [--require FRACTION] [--results FILE.json] [--merge FILE.json ...]

`import` compiles every test's model.onnx with `aicc --emit=tile` and records
which import. `cpu` compiles each to model.bin for the CPU, runs it with
aicc-run on test_data_set_0's inputs and compares with its outputs at rtol
1e-3, atol 1e-5. `cuda` does the same with `--target=cuda` (on a machine
with an NVIDIA GPU); `cuda-compile` and `rocm-compile` only compile for
those targets. `all` runs import and cpu and rewrites the document: a
per-operator table (a test counts for every operator its graphs use) and the
failing tests with the first error line of each; results of other modes,
saved elsewhere with --results, join the table through --merge.

With --check-expected the CPU results are held to
scripts/conformance/cpu-expected-failures.txt: a failure not listed there (a
regression) or a listed test that passes (a stale entry) makes the exit
status 1. --require sets the pass rate below which the exit status is 1.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testset  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "cpu-expected-failures.txt")
RTOL, ATOL = 1e-3, 1e-5


def first_error(stderr, returncode):
    lines = [l for l in stderr.splitlines() if ": error: " in l]
    reason = lines[0].split(": error: ", 1)[1] if lines else (
        stderr.strip().splitlines() or [f"exit status {returncode}"])[-1]
    if returncode < 0:
        reason = f"crashed with signal {-returncode}: {reason}"
    return reason


def import_one(args, test, workdir):
    try:
        proc = subprocess.run(
            [args.aicc, test.model_path, "--emit=tile", "-o", os.devnull],
            capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {args.timeout} s"
    if proc.returncode == 0:
        return True, ""
    return False, first_error(proc.stderr, proc.returncode)


def compile_bundle(args, test, workdir, target):
    """Compiles one test for `target`: (bundle path or None, reason)."""
    bundle = os.path.join(workdir, test.id.replace("/", "__") + "." + target
                          + ".bin")
    try:
        proc = subprocess.run(
            [args.aicc, test.model_path, "-o", bundle, "--progress=never",
             "--target=" + target] + args.aicc_arg,
            capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None, f"compile timed out after {args.timeout} s"
    if proc.returncode != 0:
        return None, "compile: " + first_error(proc.stderr, proc.returncode)
    return bundle, ""


def compile_one(args, test, workdir, target):
    """Compiles one test only; (passed, reason)."""
    bundle, reason = compile_bundle(args, test, workdir, target)
    if bundle and os.path.exists(bundle):
        os.remove(bundle)
    return bundle is not None, reason


def run_one(args, test, workdir, target):
    """Compiles, runs and compares one test; (passed, reason)."""
    bundle, reason = compile_bundle(args, test, workdir, target)
    if not bundle:
        return False, reason
    data = test.data_set(0)
    inputs = sorted((f for f in os.listdir(data) if f.startswith("input_")),
                    key=lambda f: int(f[len("input_"):].split(".")[0]))
    command = [args.aicc_run, bundle, "--expect", data, "--rtol", str(RTOL),
               "--atol", str(ATOL)]
    if target == "cpu":
        command += ["--threads", "1"]
    for f in inputs:
        command += ["-i", os.path.join(data, f)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True,
                              timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return False, f"run timed out after {args.timeout} s"
    finally:
        if os.path.exists(bundle):
            os.remove(bundle)
    if proc.returncode == 0:
        return True, ""
    if proc.returncode == 1:
        lines = [l for l in proc.stdout.splitlines() if "differ" in l
                 or "has shape" in l or " is " in l]
        return False, "mismatch: " + (lines[0] if lines else proc.stdout.strip())
    return False, "run: " + first_error(proc.stderr, proc.returncode)


def cpu_one(args, test, workdir):
    return run_one(args, test, workdir, "cpu")


MODES = {
    "cuda": lambda a, t, w: run_one(a, t, w, "cuda"),
    "cuda-compile": lambda a, t, w: compile_one(a, t, w, "cuda"),
    "rocm-compile": lambda a, t, w: compile_one(a, t, w, "rocm"),
}


def run_all(args, tests, function):
    results = {}
    workdir = tempfile.mkdtemp(prefix="aicc-conformance-")
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(function, args, t, workdir): t
                       for t in tests}
            for future in concurrent.futures.as_completed(futures):
                results[futures[future].id] = future.result()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return results


def read_expected():
    expected = {}
    if os.path.exists(EXPECTED):
        for line in open(EXPECTED):
            line = line.split("#", 1)
            test_id = line[0].strip()
            if test_id:
                expected[test_id] = line[1].strip() if len(line) > 1 else ""
    return expected


COLUMN_NOTES = {
    "cuda": "means the same with `--target=cuda`, compiled and run by the "
            "packaged tools on an NVIDIA H100, driver 580.159.04 "
            "(`scripts/device/gpu-run.sh conformance`; docs/gpu.md)",
    "cuda-compile": "means `aicc --target=cuda` compiles it",
    "rocm-compile": "means `aicc --target=rocm` compiles it (no AMD GPU to "
                    "run it on)",
}


def write_doc(path, tests, imported, cpu, note, extra, sources):
    """`extra` maps further columns' names to their results, `sources`
    to the files they came from."""
    by_op = collections.defaultdict(lambda: [0] * (3 + len(extra)))
    for test in tests:
        for op in test.ops:
            by_op[op][0] += 1
            by_op[op][1] += imported[test.id][0]
            by_op[op][2] += cpu[test.id][0]
            for i, results in enumerate(extra.values()):
                by_op[op][3 + i] += results.get(test.id, (False, ""))[0]
    n = len(tests)
    n_import = sum(1 for t in tests if imported[t.id][0])
    n_cpu = sum(1 for t in tests if cpu[t.id][0])
    lines = [
        "# ONNX conformance",
        "",
        "Generated by `scripts/conformance/run.py all`; do not edit by hand.",
        "",
        note,
        "",
        f"**Import: {n_import} of {n} tests ({100.0 * n_import / n:.1f}%). "
        f"CPU end to end: {n_cpu} of {n} tests ({100.0 * n_cpu / n:.1f}%)."
        + "".join(
            f" {name}: {sum(1 for t in tests if r.get(t.id, (0,))[0])} of "
            f"{n} ({100.0 * sum(1 for t in tests if r.get(t.id, (0,))[0]) / n:.1f}%)."
            for name, r in extra.items()) + "**",
        "",
        "The set is every test of `/usr/share/libonnx-testdata/data/{node,"
        "pytorch-converted,pytorch-operator,simple}` minus ops outside the "
        "default domain, training-mode tests, string/sequence/optional inputs, "
        "outputs or ops, and random generators (`scripts/conformance/"
        "testset.py`).",
        "",
        "*Import* means `aicc --emit=tile` accepts the model. *CPU* means "
        "`aicc` compiles it to model.bin and `aicc-run` reproduces "
        f"`test_data_set_0`'s outputs at rtol {RTOL:g}, atol {ATOL:g}.",
        "",
    ] + [
        f"*{name}* {COLUMN_NOTES.get(name, 'is a merged result')} (from "
        f"`{source}`)."
        for name, source in sources.items()
    ] + [
        "",
        "## Per operator",
        "",
        "A test counts for every operator its graphs (and subgraphs) use.",
        "",
        "| operator | tests | import | cpu |" + "".join(
            f" {name} |" for name in extra),
        "|----------|------:|-------:|----:|" + "---:|" * len(extra),
    ]
    for op in sorted(by_op):
        lines.append(f"| {op} | " + " | ".join(str(c) for c in by_op[op])
                     + " |")
    failures = [t for t in tests if not cpu[t.id][0]]
    lines += ["", f"## Tests that fail on the CPU ({len(failures)})", ""]
    if failures:
        lines += ["| test | reason |", "|------|--------|"]
        for test in failures:
            reason = cpu[test.id][1].replace("|", "\\|")
            if len(reason) > 200:
                reason = reason[:197] + "..."
            lines.append(f"| {test.id} | {reason} |")
    else:
        lines.append("None.")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["import", "cpu", "all"] + list(MODES))
    parser.add_argument("--aicc", default=os.path.join(REPO, "build", "bin",
                                                       "aicc"))
    parser.add_argument("--aicc-run", default=os.path.join(
        REPO, "build", "bin", "aicc-run"))
    parser.add_argument("--aicc-arg", action="append", default=[],
                        help="pass this option to every aicc compile "
                             "(repeatable), e.g. --aicc-arg=--channels-last")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--doc", default=os.path.join(REPO, "docs",
                                                      "conformance.md"))
    parser.add_argument("--filter", default="",
                        help="run only the tests whose id contains one of "
                             "these comma-separated substrings")
    parser.add_argument("--shard", default="0/1",
                        help="K/N: run only every Nth test, from the Kth "
                             "(to split a long run over several calls)")
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--require", type=float, default=0.0,
                        help="fail unless at least this fraction passes")
    parser.add_argument("--check-expected", action="store_true",
                        help="fail on CPU results that differ from "
                             "cpu-expected-failures.txt")
    parser.add_argument("--results", help="save this run's results (JSON)")
    parser.add_argument("--merge", nargs="*", default=[],
                        help="results of other modes (JSON from --results) "
                             "to add to the document's table")
    parser.add_argument("--write-expected", action="store_true",
                        help="rewrite cpu-expected-failures.txt from this "
                             "run's CPU failures")
    args = parser.parse_args()

    wanted = [f for f in args.filter.split(",") if f] or [""]
    tests = [t for t in testset.tests() if any(f in t.id for f in wanted)]
    shard, shards = (int(x) for x in args.shard.split("/"))
    if not 0 <= shard < shards:
        parser.error("--shard K/N needs 0 <= K < N")
    tests = tests[shard::shards]
    status = 0
    start = time.monotonic()
    imported = cpu = None
    if args.mode in ("import", "all"):
        imported = run_all(args, tests, import_one)
        passed = sum(1 for t in tests if imported[t.id][0])
        print(f"import: {passed}/{len(tests)} "
              f"({100.0 * passed / max(1, len(tests)):.1f}%)")
        if args.mode == "import":
            if passed < args.require * len(tests):
                status = 1
            for t in tests:
                if not imported[t.id][0] and args.filter:
                    print(f"  FAIL {t.id}: {imported[t.id][1]}")
    if args.mode in ("cpu", "all"):
        cpu = run_all(args, tests, cpu_one)
        passed = sum(1 for t in tests if cpu[t.id][0])
        print(f"cpu: {passed}/{len(tests)} "
              f"({100.0 * passed / max(1, len(tests)):.1f}%)")
        if passed < args.require * len(tests):
            status = 1
        expected = read_expected()
        regressions = [t for t in tests
                       if not cpu[t.id][0] and t.id not in expected]
        stale = [t for t in tests if cpu[t.id][0] and t.id in expected]
        for t in tests:
            if not cpu[t.id][0] and (args.filter or t in regressions):
                tag = "REGRESSION" if t in regressions else "FAIL"
                print(f"  {tag} {t.id}: {cpu[t.id][1]}")
        for t in stale:
            print(f"  UNEXPECTED PASS {t.id}: remove it from "
                  f"{os.path.relpath(EXPECTED, REPO)}")
        if args.check_expected and (regressions or stale):
            print(f"cpu: {len(regressions)} regressions, {len(stale)} "
                  "unexpected passes")
            status = 1
        if args.write_expected and not args.filter and shards == 1:
            with open(EXPECTED, "w") as f:
                f.write("# CPU conformance tests that fail today, with the "
                        "reason.\n# Generated by `scripts/conformance/run.py "
                        "cpu --write-expected`;\n# CI fails when a test not "
                        "listed here fails or a listed one passes.\n")
                for t in tests:
                    if not cpu[t.id][0]:
                        f.write(f"{t.id}  # {cpu[t.id][1][:160]}\n")
    results = {}
    if args.mode in MODES:
        outcome = run_all(args, tests, MODES[args.mode])
        passed = sum(1 for t in tests if outcome[t.id][0])
        print(f"{args.mode}: {passed}/{len(tests)} "
              f"({100.0 * passed / max(1, len(tests)):.1f}%)")
        if passed < args.require * len(tests):
            status = 1
        reasons = collections.Counter(
            outcome[t.id][1][:70] for t in tests if not outcome[t.id][0])
        for reason, count in reasons.most_common(25):
            print(f"  {count:4d} x {reason}")
        results[args.mode] = outcome
    if imported:
        results["import"] = imported
    if cpu:
        results["cpu"] = cpu
    if args.results:
        with open(args.results, "w") as f:
            json.dump(results, f, indent=0, sort_keys=True)
    elapsed = time.monotonic() - start
    if args.mode == "all" and not args.filter and shards == 1:
        extra, sources = {}, {}
        for path in args.merge:
            for mode, outcome in json.load(open(path)).items():
                if mode not in ("import", "cpu"):
                    extra[mode] = outcome
                    sources[mode] = os.path.relpath(path, REPO)
        note = (f"Measured with `{os.path.relpath(args.aicc, REPO)}` and "
                f"`{os.path.relpath(args.aicc_run, REPO)}` over {len(tests)} "
                f"tests in {elapsed:.0f} s ({args.jobs} parallel jobs).")
        write_doc(args.doc, tests, imported, cpu, note, extra, sources)
    print(f"done in {elapsed:.0f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
