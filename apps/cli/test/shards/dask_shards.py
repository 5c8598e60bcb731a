"""Shards a JSONL corpus on a Dask cluster and pipes each partition through `toolcall repair - -o -`, as a user
cleaning a corpus past one machine would (the recipe of the command line's README, "Sharding on a cluster").

Usage: dask_shards.py --toolcall CLI_JS --corpus FILE --work DIR --partitions N [--fail-partition K]

Starts a scheduler and two workers on 127.0.0.1 (separate processes, as on a cluster), splits the corpus at line
boundaries into N partition files, maps `repair` over them on the workers (each partition's bytes go in on standard
input, the repaired bytes out on standard output to a file beside it, its journal too), joins the outputs in order
and rebases the journals onto the joined output (each entry's offset moves by the output bytes of the partitions
before it, its line number by their lines), which gives the journal a single run writes. Prints one JSON object: per partition its exit code, sizes and (when
it failed) its error; the joined output's and journal's paths; the seconds the cluster run took.

With --fail-partition K, partition K is given a journal path that cannot be written, so that partition fails: the
run reports it by number and joins nothing, and the other partitions' outputs are kept.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from distributed import Client


def split_lines(data: bytes, parts: int) -> list:
    """The corpus cut into `parts` pieces of about equal size, each ending at a line boundary (none empty)."""
    pieces, start, target = [], 0, max(1, len(data) // parts)
    while start < len(data) and len(pieces) < parts - 1:
        cut = data.find(b"\n", start + target - 1)
        if cut < 0:
            break
        pieces.append(data[start:cut + 1])
        start = cut + 1
    if start < len(data):
        pieces.append(data[start:])
    return pieces


def repair_partition(index: int, source: str, output: str, toolcall: str, journal: str) -> dict:
    """Runs on a worker: the partition's file (on storage every worker sees, as on a cluster) piped through
    `toolcall repair - -o - --journal JOURNAL`, its standard output written to `output`. Only the outcome travels
    back to the client, never the data."""
    with open(source, "rb") as data, open(output + ".partial", "wb") as out:
        done = subprocess.run(["node", toolcall, "repair", "-", "-o", "-", "--journal", journal, "--quiet"],
                              stdin=data, stdout=out, stderr=subprocess.PIPE)
    # 0: nothing left to report, 1: findings remain; 2 and above: the repair did not happen (no output is kept).
    if done.returncode < 2:
        os.replace(output + ".partial", output)
    else:
        os.unlink(output + ".partial")
    return {"index": index, "exit": done.returncode, "stderr": done.stderr.decode("utf-8", "replace"),
            "outputBytes": os.path.getsize(output) if done.returncode < 2 else 0, "worker": os.getpid()}


def rebase(journal: Path, output_base: int, line_base: int) -> list:
    """A partition's journal entries, placed in the joined output (its trailer left out)."""
    entries = []
    for line in journal.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("journal") == "toolcall":
            continue
        entry["at"] += output_base
        place = entry.get("place", "")
        if place.startswith("line "):
            entry["place"] = f"line {int(place[5:]) + line_base}"
        entries.append(entry)
    return entries


def start_cluster(work: Path) -> tuple:
    scheduler_file = work / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    common = ["--no-dashboard"]
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
         "--scheduler-file", str(scheduler_file), *common],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )
    for _ in range(600):
        if scheduler_file.exists() and scheduler_file.stat().st_size > 0:
            break
        time.sleep(0.1)
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file),
             "--host", "127.0.0.1", "--nworkers", "1", "--nthreads", "1", "--name", f"worker-{n}", *common],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )
        for n in range(2)
    ]
    client = Client(scheduler_file=str(scheduler_file), timeout=60)
    client.wait_for_workers(2, timeout=120)
    return client, [scheduler, *workers]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--toolcall", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--partitions", type=int, default=6)
    parser.add_argument("--fail-partition", type=int)
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    corpus = Path(args.corpus).read_bytes()
    parts = split_lines(corpus, args.partitions)
    for index, data in enumerate(parts):
        (work / f"part-{index:03d}.jsonl").write_bytes(data)
    client, processes = start_cluster(work)
    try:
        started = time.perf_counter()
        journals = [
            str(work / ("missing-directory" if index == args.fail_partition else ".") / f"part-{index:03d}.journal")
            for index in range(len(parts))
        ]
        sources = [str(work / f"part-{index:03d}.jsonl") for index in range(len(parts))]
        outputs = [str(work / f"part-{index:03d}.fixed.jsonl") for index in range(len(parts))]
        futures = client.map(repair_partition, range(len(parts)), sources, outputs, [args.toolcall] * len(parts),
                             journals, pure=False)
        results = client.gather(futures)
        seconds = time.perf_counter() - started
        workers = sorted({result["worker"] for result in results})
    finally:
        client.close()
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)
    failed = [r for r in results if r["exit"] >= 2]
    report = {
        "partitions": [
            {"index": r["index"], "exit": r["exit"], "inputBytes": len(parts[r["index"]]), "outputBytes": r["outputBytes"],
             "lines": parts[r["index"]].count(b"\n"), **({"error": r["stderr"].strip()} if r["exit"] >= 2 else {})}
            for r in results
        ],
        "workers": len(workers),
        "seconds": seconds,
        "corpusBytes": len(corpus),
    }
    if failed:
        # Nothing is joined from a run with a failed partition: its input stays as it was, the other partitions'
        # outputs and journals are kept for a retry of only the failed ones.
        report["failed"] = [r["index"] for r in failed]
        print(json.dumps(report))
        return 1
    joined = b"".join(Path(path).read_bytes() for path in outputs)
    (work / "joined.jsonl").write_bytes(joined)
    entries, output_base, line_base = [], 0, 0
    for index, data in enumerate(parts):
        entries += rebase(Path(journals[index]), output_base, line_base)
        output_base += results[index]["outputBytes"]
        line_base += data.count(b"\n")
    trailer = {
        "journal": "toolcall", "version": 1,
        "input": {"name": Path(args.corpus).name, "bytes": len(corpus), "sha256": hashlib.sha256(corpus).hexdigest()},
        "output": {"bytes": len(joined), "sha256": hashlib.sha256(joined).hexdigest(), "gzip": False},
        "entries": len(entries),
    }
    with open(work / "joined.journal", "w", encoding="utf-8") as out:
        for entry in [*entries, trailer]:
            out.write(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n")
    report["joined"] = str(work / "joined.jsonl")
    report["journal"] = str(work / "joined.journal")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
