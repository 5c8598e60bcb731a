"""The PEP 517 backend of toolcall-conformance: setuptools, after copying the vectors in.

The vectors live once, in ``packages/conformance/vectors`` (with ``vectors.schema.json``, ``provider-profiles.json``
and the version in ``package.json``). Every build hook copies them into ``src/toolcall_conformance/data`` and removes the copy
afterwards, so the source tree never holds a second, stale set. Built from an sdist (no ``package.json`` above),
the data already sits in the package and is used as it is.
"""

from __future__ import annotations

import json
import re
import shutil
from contextlib import contextmanager
from pathlib import Path

from setuptools import build_meta as _setuptools

HERE = Path(__file__).resolve().parent.parent  # packages/conformance/python
SOURCE = HERE.parent  # packages/conformance
DATA = HERE / "src" / "toolcall_conformance" / "data"


def _python_version(version: str) -> str:
    match = re.fullmatch(r"(\d+\.\d+\.\d+)(?:-(alpha|beta|rc)\.(\d+))?", version)
    if match is None:
        raise ValueError(f"cannot map the npm version {version!r} onto a Python version")
    base, tag, number = match.groups()
    return base if tag is None else base + {"alpha": "a", "beta": "b", "rc": "rc"}[tag] + number


@contextmanager
def _vectors_copied():
    manifest = SOURCE / "package.json"
    if not manifest.is_file():  # an sdist: the data came with it
        if not (DATA / "vectors").is_dir():
            raise FileNotFoundError(f"no vectors: neither {SOURCE / 'vectors'} nor {DATA / 'vectors'}")
        yield
        return
    shutil.rmtree(DATA, ignore_errors=True)
    DATA.mkdir(parents=True)
    try:
        shutil.copytree(SOURCE / "vectors", DATA / "vectors")
        shutil.copy2(SOURCE / "vectors.schema.json", DATA / "vectors.schema.json")
        shutil.copy2(SOURCE / "provider-profiles.json", DATA / "provider-profiles.json")
        version = json.loads(manifest.read_text(encoding="utf-8"))["version"]
        (DATA / "VERSION").write_text(_python_version(version) + "\n", encoding="utf-8")
        yield
    finally:
        shutil.rmtree(DATA, ignore_errors=True)


def get_requires_for_build_wheel(config_settings=None):
    return _setuptools.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings=None):
    return _setuptools.get_requires_for_build_sdist(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    with _vectors_copied():
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with _vectors_copied():
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    with _vectors_copied():
        return _setuptools.build_sdist(sdist_directory, config_settings)
