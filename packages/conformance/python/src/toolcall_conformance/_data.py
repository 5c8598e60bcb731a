"""Where the vectors, the schema and the contract version come from.

Installed (a wheel): the package's own ``data`` directory, which the build fills from the repository (the vectors,
the schema, ``provider-profiles.json`` and the version). Run from a
checkout of the repository or from the npm package (``python/src`` on the path): the ``vectors`` directory and
``package.json`` of ``@toolcall/conformance``, the single source of truth. ``$TOOLCALL_VECTORS`` or an explicit
``root`` points the runner at another vectors directory.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _source_tree() -> Path | None:
    """``packages/conformance`` when this module sits in ``packages/conformance/python/src/toolcall_conformance``."""
    candidate = HERE.parents[2] if len(HERE.parents) > 2 else None
    if candidate and (candidate / "vectors").is_dir() and (candidate / "package.json").is_file():
        return candidate
    return None


def data_dir() -> Path:
    """The directory holding ``vectors/`` and ``vectors.schema.json``: the source tree first, else package data."""
    tree = _source_tree()
    if tree is not None:
        return tree
    packaged = HERE / "data"
    if (packaged / "vectors").is_dir():
        return packaged
    raise FileNotFoundError(f"no vectors: neither {packaged}/vectors (an installed wheel) nor a source tree")


def vectors_root(root: str | os.PathLike | None = None) -> Path:
    """``root``, else ``$TOOLCALL_VECTORS``, else the shipped vectors."""
    if root is not None:
        return Path(root)
    env = os.environ.get("TOOLCALL_VECTORS")
    if env:
        return Path(env)
    return data_dir() / "vectors"


def schema_path() -> Path:
    return data_dir() / "vectors.schema.json"


def provider_profiles_path() -> Path:
    """``provider-profiles.json``: what each provider rejects in a history, as data (written from @toolcall/core's
    profiles; VECTORS.md, *Provider profiles*, says what each check code means)."""
    return data_dir() / "provider-profiles.json"


def provider_profiles() -> list:
    """The provider profiles, in listing order: the data a Python implementation of ``validate_for_provider``
    reads (``profile["constraints"]``, each with its ``code``, literal ``message`` and ``status``).

    >>> [p["id"] for p in provider_profiles()][:2]
    ['openai-chat', 'openai-responses']
    """
    return json.loads(provider_profiles_path().read_text(encoding="utf-8"))["profiles"]


def npm_to_python_version(version: str) -> str:
    """The PEP 440 form of an npm version: ``1.2.3`` stays, ``1.2.3-beta.4`` is ``1.2.3b4``, ``-rc.1`` ``rc1``,
    ``-alpha.2`` ``a2``. Anything else raises: the versions must stay tied, never guessed."""
    match = re.fullmatch(r"(\d+\.\d+\.\d+)(?:-(alpha|beta|rc)\.(\d+))?", version)
    if match is None:
        raise ValueError(f"cannot map the npm version {version!r} onto a Python version")
    base, tag, number = match.groups()
    return base if tag is None else f"{base}{ {'alpha': 'a', 'beta': 'b', 'rc': 'rc'}[tag] }{number}".replace(" ", "")


def contract_version() -> str:
    """The vector contract's version: ``@toolcall/conformance``'s, in PEP 440 form."""
    tree = _source_tree()
    if tree is not None:
        return npm_to_python_version(json.loads((tree / "package.json").read_text(encoding="utf-8"))["version"])
    version_file = HERE / "data" / "VERSION"
    if version_file.is_file():
        return version_file.read_text(encoding="utf-8").strip()
    return "0+unknown"
