"""R8's ``render`` vectors: the input a renderer gets (a shared template file read and checked) and the check."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Callable, Mapping

from ._compare import show

#: The clock ``strftime_now`` reads in a render vector that names none (``../parity/hf_render.py``'s).
DEFAULT_RENDER_CLOCK = "2026-01-02T03:04:05"


def render_input(given: Any, templates: str | os.PathLike | None) -> tuple[dict | None, str | None]:
    """A render vector's input with a named shared template read (and checked against its SHA-256) and the
    defaults filled in: ``(input, None)``, or ``(None, why it cannot run)``. ``templates`` is the directory of shared
    templates (default ``$TOOLCALL_TEMPLATES``)."""
    source = dict(given) if isinstance(given, Mapping) else {}
    template = source.get("template")
    file = source.get("templateFile")
    if file is not None:
        directory = templates if templates is not None else os.environ.get("TOOLCALL_TEMPLATES")
        if not directory:
            return None, f"renders the shared template {file}: set TOOLCALL_TEMPLATES (or templates=) to its directory"
        path = Path(directory) / file
        if not path.is_file():
            return None, f"renders the shared template {file}, not found in {directory}"
        data = path.read_bytes()
        found = hashlib.sha256(data).hexdigest()
        if source.get("templateSha256") not in (None, found):
            return None, f"{path} is not the template the vector was made with (sha256 {found})"
        template = data.decode("utf-8")
    if not isinstance(template, str):
        return None, "the vector has no template"
    return {
        "template": template,
        "messages": source.get("messages") or [],
        "tools": source.get("tools"),
        "addGenerationPrompt": bool(source.get("addGenerationPrompt", False)),
        "variables": dict(source.get("variables") or {}),
        "now": source.get("now") or DEFAULT_RENDER_CLOCK,
    }, None


def render_outcome(function: Callable[[dict], Any], given: dict) -> dict:
    """Calls ``render_template``: ``{"text"}``, or ``{"error": {"type", "message"}}`` when the template raises (an
    expected outcome, compared by ``type(e).__name__`` and ``str(e)``)."""
    try:
        return {"text": function(given)}
    except Exception as error:  # noqa: BLE001 — a template that raises is an outcome the vector names
        return {"error": {"type": type(error).__name__, "message": str(error)}}


def check_render(expected: Mapping, actual: Mapping, at: Callable[[str], bool]) -> list[str]:
    """``text`` (mapping level) or ``error`` (full level) against a render outcome."""
    messages: list[str] = []
    error = actual.get("error")
    if at("text"):
        if error is not None:
            messages.append(f"text: expected {show(expected['text'])}, got {error['type']}: {error['message']}")
        elif actual.get("text") != expected["text"]:
            messages.append(f"text: expected {show(expected['text'])}, got {show(actual.get('text'))}")
    if at("error"):
        want = expected["error"]
        if error is None:
            messages.append(f"error: expected {want['type']}, got text {show(actual.get('text'))}")
        elif error["type"] != want["type"] or ("message" in want and error["message"] != want["message"]):
            wanted = f"{want['type']}: {want['message']}" if "message" in want else want["type"]
            messages.append(f"error: expected {wanted}, got {error['type']}: {error['message']}")
    return messages
