"""The package as a downstream project gets it: a wheel built offline with the image's Python tooling (Debian's
setuptools and wheel), installed into a fresh venv, run with ``pytest --toolcall-impl`` against a 20-line
implementation in a scratch directory, with neither the monorepo nor Node reachable.

The venv uses ``--system-site-packages`` because pytest comes from the image's Python, not from an index (none is
reachable); the package itself is installed into the venv and imported from there (checked).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

PACKAGE = Path(__file__).resolve().parents[2]  # packages/conformance

STACK = '''\
"""A downstream stack's tool-call arguments decoder, declared at the mapping level."""
import json

LEVEL = "mapping"
OPERATIONS = ["decode"]


def decode_arguments(value):
    if value is None:
        return {}
    if not isinstance(value, str):
        return value if isinstance(value, dict) else {"_raw_arguments": value}
    try:
        parsed = json.loads(value.strip() or "{}", parse_constant=lambda name: {}[name])
        inner = json.loads(parsed) if isinstance(parsed, str) else parsed
    except (ValueError, KeyError, RecursionError):
        return {"_raw_arguments": value}
    if parsed is None:
        return {}
    return inner if isinstance(inner, dict) else {"_raw_arguments": value}
'''


def builder() -> str:
    """A Python with setuptools and wheel (Debian's /usr/bin/python3 has both; the image's default may lack wheel)."""
    for candidate in ("/usr/bin/python3", sys.executable):
        probe = subprocess.run([candidate, "-c", "import setuptools, wheel, pip"], capture_output=True)
        if probe.returncode == 0:
            return candidate
    pytest.fail("no Python with setuptools, wheel and pip to build the wheel (apt-get install python3-wheel)")


def run(command: list, **options) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **options)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A copy of the package's sources alone (no monorepo around it), its wheel and sdist, and a venv with the wheel."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "conformance"
    source.mkdir()
    shutil.copy2(PACKAGE / "package.json", source / "package.json")
    shutil.copy2(PACKAGE / "vectors.schema.json", source / "vectors.schema.json")
    shutil.copy2(PACKAGE / "provider-profiles.json", source / "provider-profiles.json")
    shutil.copytree(PACKAGE / "vectors", source / "vectors")
    shutil.copytree(
        PACKAGE / "python", source / "python",
        ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__", "data", "tests"),
    )
    python = builder()
    # The README's install lines, as printed, in the copy (`python3` is the Python running these tests).
    for line in readme_install_lines():
        if line.startswith("cd "):
            continue
        if line.startswith("/usr/bin/python3 "):
            command = python + line[len("/usr/bin/python3"):]
        elif line.startswith("python3 "):
            command = sys.executable + line[len("python3"):]
        else:
            command = line
        run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=source / "python")
    dist = source / "python" / "dist"
    (wheel,) = dist.glob("toolcall_conformance-*.whl")
    venv = source / "python" / ".venv"
    scratch = work / "scratch"
    scratch.mkdir()
    (scratch / "my_stack.py").write_text(STACK, encoding="utf-8")
    return {"work": work, "source": source, "wheel": wheel, "venv": venv, "scratch": scratch, "builder": python}


def readme_install_lines() -> list:
    """The command lines of the README's install block (the fenced `sh` block of its "Install" section)."""
    text = (PACKAGE / "python" / "README.md").read_text(encoding="utf-8")
    section = text.split("## Install", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the README's Install section has no sh block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip() and not line.startswith("#")]


def in_venv(installed, *arguments: str) -> subprocess.CompletedProcess:
    """Runs the venv's Python in the scratch directory with only the venv on PATH (no node) and no PYTHONPATH."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON") and key != "TOOLCALL_VECTORS"}
    env["PATH"] = str(installed["venv"] / "bin")
    return subprocess.run([str(installed["venv"] / "bin" / "python"), *arguments], capture_output=True, text=True,
                          cwd=installed["scratch"], env=env)


def vector_count() -> int:
    return sum(len(group["tests"]) for path in (PACKAGE / "vectors").rglob("*.json")
               for group in json.loads(path.read_text(encoding="utf-8")))


def test_the_wheel_holds_the_vectors_the_schema_the_provider_profiles_and_the_contract_version(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    vectors = sorted(n for n in names if n.startswith("toolcall_conformance/data/vectors/"))
    assert len(vectors) == len(list((PACKAGE / "vectors").rglob("*.json")))
    assert "toolcall_conformance/data/vectors.schema.json" in names
    assert "toolcall_conformance/data/provider-profiles.json" in names
    version = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["version"]
    assert installed["wheel"].name == f"toolcall_conformance-{version}-py3-none-any.whl"
    entry_points = zipfile.ZipFile(installed["wheel"]).read(f"toolcall_conformance-{version}.dist-info/entry_points.txt")
    assert b"[pytest11]\ntoolcall_conformance = toolcall_conformance.pytest_plugin" in entry_points
    assert not (installed["source"] / "python" / "src" / "toolcall_conformance" / "data").exists()


def test_it_imports_from_the_venv_without_the_monorepo_or_node(installed):
    done = in_venv(installed, "-c", "import shutil, toolcall_conformance as t; print(t.__file__); print(t.__version__); print(shutil.which('node'))")
    where, version, node = done.stdout.split()
    assert Path(where).is_relative_to(installed["venv"])
    assert version == json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["version"]
    assert node == "None"


def test_the_installed_package_reads_its_own_provider_profiles(installed):
    script = "import json, toolcall_conformance as t; print(json.dumps([p['id'] for p in t.provider_profiles()]))"
    done = in_venv(installed, "-c", script)
    assert done.returncode == 0, done.stderr
    shipped = json.loads((PACKAGE / "provider-profiles.json").read_text(encoding="utf-8"))["profiles"]
    assert json.loads(done.stdout) == [profile["id"] for profile in shipped]


def test_pytest_runs_every_vector_against_a_20_line_implementation(installed):
    assert len([line for line in STACK.splitlines() if line.strip()]) <= 20
    done = in_venv(installed, "-m", "pytest", "--toolcall-impl", "my_stack", "-p", "no:cacheprovider", "-q",
                   "--junitxml=report.xml", "--toolcall-report=totals.json")
    assert done.returncode == 0, done.stdout + done.stderr
    suite = ElementTree.parse(installed["scratch"] / "report.xml").getroot().find("testsuite")
    assert int(suite.get("tests")) == vector_count()
    assert int(suite.get("failures")) == 0 and int(suite.get("errors")) == 0
    totals = json.loads((installed["scratch"] / "totals.json").read_text(encoding="utf-8"))
    assert totals["level"] == "mapping" and totals["failed"] == 0
    assert totals["byRule"]["R1"]["passed"] > 70
    assert totals["passed"] + totals["skipped"] + totals["notApplicable"] == vector_count()
    assert "toolcall conformance (mapping level)" in done.stdout
    # pytest's own summary counts vectors the implementation does not answer apart, never as skipped.
    final = done.stdout.strip().splitlines()[-1]
    assert f"{totals['notApplicable']} not at this level" in final, final
    assert "skipped" not in final or f"{totals['skipped']} skipped" in final, final


def test_a_bug_fails_by_vector_id_through_the_plugin_and_the_command_line(installed):
    (installed["scratch"] / "buggy_stack.py").write_text(STACK.replace('value.strip() or "{}"', 'value or "{}"'))
    done = in_venv(installed, "-m", "pytest", "--toolcall-impl", "buggy_stack", "-p", "no:cacheprovider", "-q")
    assert done.returncode == 1
    assert "r1-statuses-json-whitespace-only-is-empty: arguments: expected {}, got" in done.stdout
    cli = in_venv(installed, "-m", "toolcall_conformance", "--impl", "buggy_stack", "--json")
    assert cli.returncode == 1
    report = json.loads(cli.stdout)
    assert [f["id"] for f in report["failures"]] == ["r1-statuses-json-whitespace-only-is-empty"]
    assert in_venv(installed, "-m", "toolcall_conformance", "--impl", "my_stack").returncode == 0


def test_the_sdist_carries_the_vectors_and_builds_the_same_wheel(installed):
    dist = installed["work"] / "sdist"
    run([installed["builder"], "-c", "import sys, toolcall_build; print(toolcall_build.build_sdist(sys.argv[1]))", str(dist)],
        cwd=installed["source"] / "python", env={**os.environ, "PYTHONPATH": "_build"})
    (archive,) = dist.glob("toolcall[-_]conformance-*.tar.gz")
    unpacked = installed["work"] / "unpacked"
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    (root,) = unpacked.iterdir()
    assert (root / "src" / "toolcall_conformance" / "data" / "vectors" / "r1" / "statuses.json").is_file()
    wheels = installed["work"] / "from-sdist"
    run([installed["builder"], "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w",
         str(wheels), "."], cwd=root)
    (wheel,) = wheels.glob("*.whl")
    assert sorted(zipfile.ZipFile(wheel).namelist()) == sorted(zipfile.ZipFile(installed["wheel"]).namelist())
