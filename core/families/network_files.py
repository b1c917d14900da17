"""Network files: how a network leaves one database and reaches another
place (a user's disk, the package's shipped networks).

A network file is UTF-8 JSON, one object::

    {"format": "genethello-network",
     "version": 1,
     "name": "all-2_17_3f09c2a1b4de",
     "architecture": "all-2",
     "tuples": "a1 b1\\na1 b2\\n...",
     "weights": [0.7312, -1.05, ...]}

* ``name``: the network's text (``ARCH_BIRTH_DIGEST``,
  :mod:`genethello.core.families.network_family`). Reading checks that the weights
  quantize to the digest it names, so a file cannot claim another network's
  name.
* ``architecture``: a named architecture (``all-2``, ...); ``tuples`` its
  base tuples in the tuples-file format, checked against the name's (a file
  written for another definition of the name is refused, not misread).
* ``weights``: the real weights, JSON numbers in the architecture's LUT
  order (the payload's order). Python writes each float64 as its shortest
  repr, which reads back to the same float64 bit for bit.

A staged network (:mod:`genethello.core.families.networks`: S > 1 stages,
valued in discs for the side to move) is written as version 2, with two
keys more, and its kind's name in ``name``::

    {"format": "genethello-network",
     "version": 2,
     "name": "all-2-s8_0_5b1d...",
     "architecture": "all-2",
     "stages": 8,
     "whole_disc_weight": 0,
     "value": "discs for the side to move, 1/64 disc",
     "tuples": "...",
     "weights": [...]}

``weights`` holds stage 0's LUTs, then stage 1's, ...; a large network
(more than :data:`PACKED_ABOVE` weights, such as the pattern-table network's
5 million) holds ``packed_weights`` instead: ``{"encoding":
"int32-zlib-base64", "units_per_disc": 64, "data": ...}``, its weights as
little-endian int32 in 1/64 disc, zlib-compressed, in base64: the
integers the network plays (the real weights read back are those / 64,
the same network and name; finer real weights are rounded). Version 1 files (S = 1) are
written and read as before.

Reading takes at most :data:`MAX_FILE_BYTES` and fails with one line
(:class:`NetworkFileError`) naming the file and what is wrong.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from genethello.core.families.network_family import NETWORKS, NetworkError, NetworkIndividual
from genethello.core.families.networks import DISC_UNITS, MAX_WEIGHT
from genethello.core.frontend.errors import UserError
from genethello.core.frontend.user_files import (
    UserFileError,
    inflate_bounded,
    loads_json,
    read_user_file,
    user_text,
    write_user_file,
)

__all__ = ["FORMAT", "VERSION", "STAGED_VERSION", "MAX_FILE_BYTES", "PACKED_ABOVE", "NetworkFileError",
           "network_document", "network_file_text", "parse_network_file", "read_network_file", "write_network_file"]

FORMAT = "genethello-network"
VERSION = 1
#: The version of a staged network's file.
STAGED_VERSION = 2
#: Staged networks of more weights than this are written packed (module docstring).
PACKED_ABOVE = 100_000
PACKED_ENCODING = "int32-zlib-base64"
# zlib's level for packed weights: 6 packs table-player-4's 5,018,970
# weights in 0.7 s to 3.24 MB where 9 takes 7.9 s for 2.99 MB (a file any
# level wrote reads the same).
PACKED_LEVEL = 6
#: What a staged network file says its values are.
STAGED_VALUE = f"discs for the side to move, 1/{DISC_UNITS} disc"
#: The largest network file read (bytes): all-4+2x2's weights as JSON take
#: well under 1 MB; a larger file is not a network of ours.
MAX_FILE_BYTES = 16 * 1024 * 1024


class NetworkFileError(UserError):
    """A network file cannot be read or is not a valid network (one line)."""


def network_document(individual: NetworkIndividual) -> dict[str, Any]:
    """The JSON object of a network file for ``individual`` (a packed file
    holds the integers played, the real weights rounded to 1/64 disc: the
    same network and name, but a breeder reading it back goes on from the
    rounded weights).
    """
    network = individual.network
    arch = network.architecture
    if not network.staged:
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": str(individual),
            "architecture": arch.name,
            "tuples": arch.text(),
            "weights": [float(w) for w in network.weights],
        }
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": STAGED_VERSION,
        "name": str(individual),
        "architecture": arch.name,
        "stages": network.stages,
        "whole_disc_weight": network.whole_disc_weight,
        "value": STAGED_VALUE,
        "tuples": arch.text(),
    }
    if network.mobility:
        doc["mobility"] = True        # the weights end with each stage's mobility entries
    if network.weights.size <= PACKED_ABOVE:
        doc["weights"] = [float(w) for w in network.weights]
        return doc
    q = network.int_weights
    data = base64.b64encode(zlib.compress(np.ascontiguousarray(q, dtype="<i4").tobytes(), PACKED_LEVEL)).decode("ascii")
    doc["packed_weights"] = {"encoding": PACKED_ENCODING, "units_per_disc": DISC_UNITS, "data": data}
    return doc


def network_file_text(individual: NetworkIndividual) -> str:
    """A network file's text (one weight per line, so diffs stay readable)."""
    doc = network_document(individual)
    if "weights" not in doc:
        return json.dumps(doc, indent=1, allow_nan=False) + "\n"
    weights = doc.pop("weights")
    head = json.dumps(doc, indent=1, allow_nan=False)[:-2]
    body = ",\n  ".join(json.dumps(w, allow_nan=False) for w in weights)
    return f'{head},\n "weights": [\n  {body}\n ]\n}}\n'


def parse_network_file(text: str, source: str) -> NetworkIndividual:
    """The network a file's ``text`` holds (``source`` names it in errors).

    Raises:
        NetworkFileError: one line naming ``source`` and the problem.
    """
    def fail(message: str) -> NetworkFileError:
        return NetworkFileError(f"{source}: {message}")

    try:
        doc = loads_json(text, source)
    except UserFileError as exc:
        raise NetworkFileError(str(exc)) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise fail(f'not a network file (no "format": "{FORMAT}")')
    version = doc.get("version")
    if version not in (VERSION, STAGED_VERSION) or isinstance(version, bool):
        raise fail(f"network file version {version!r}: this genethello reads versions {VERSION} and {STAGED_VERSION}")
    packed = version == STAGED_VERSION and "weights" not in doc
    keys = (("name", str), ("architecture", str), ("tuples", str)) + (() if packed else (("weights", list),))
    for key, kind in keys:
        if not isinstance(doc.get(key), kind):
            raise fail(f'"{key}" is missing or not a {"list" if kind is list else "string"}')
    kind_name = doc["architecture"]
    if version == STAGED_VERSION:
        stages, weight = doc.get("stages"), doc.get("whole_disc_weight", 0)
        if (not isinstance(stages, int) or isinstance(stages, bool) or not isinstance(weight, int)
                or isinstance(weight, bool) or stages < 2 or weight < 0):
            raise fail(f'a version {STAGED_VERSION} file (a staged network) needs "stages" (an int >= 2) and '
                       '"whole_disc_weight" (an int >= 0)')
        if doc.get("value") != STAGED_VALUE:
            raise fail(f'"value" is {doc.get("value")!r}: this genethello reads staged networks '
                       f'valued in "{STAGED_VALUE}"')
        mobility = doc.get("mobility", False)
        if not isinstance(mobility, bool):
            raise fail(f'"mobility" is {mobility!r}, not true or false')
        kind_name += f"-s{stages}" + (f"-w{weight}" if weight else "") + ("-m" if mobility else "")
    try:
        network_kind = NETWORKS.parse_kind(kind_name)
    except NetworkError as exc:
        raise fail(str(exc)) from None
    if version == VERSION and network_kind.stages != 1:
        raise fail(f"a staged network ({network_kind.name}) is a version {STAGED_VERSION} file")
    if doc["tuples"] != network_kind.architecture.text():
        raise fail(f'"tuples" are not those of architecture {network_kind.architecture.name!r} in this genethello')
    weights = doc["weights"] if not packed else _unpacked(doc.get("packed_weights"), network_kind.n_weights, fail)
    if len(weights) != network_kind.n_weights:
        raise fail(f"{network_kind.name} has {network_kind.n_weights} weights, the file {len(weights)}")
    for i, w in enumerate(() if packed else weights):
        if isinstance(w, bool) or not isinstance(w, int | float):
            raise fail(f"weight {i} is {w!r}, not a finite number")
        try:
            w = float(w)            # an integer of 401 digits is beyond any float
        except OverflowError:
            raise fail(f"weight {i} is an integer of {len(str(abs(w)))} digits, not a finite number") from None
        if not math.isfinite(w) or abs(w) > MAX_WEIGHT:
            raise fail(f"weight {i} is {w!r}, not a finite number within ±{MAX_WEIGHT:g}")
        weights[i] = w
    if not doc["name"].startswith(network_kind.name + "_"):
        raise fail(f"name {doc['name']!r} is not the name of a network of architecture {network_kind.name}")
    payload = np.asarray(weights, dtype="<f8").tobytes()
    try:
        individual: NetworkIndividual = NETWORKS.parse(doc["name"], payload)
    except (NetworkError, ValueError) as exc:     # ValueError: weights that cannot be quantized
        raise fail(str(exc)) from None
    return individual


def _unpacked(packed: object, n_weights: int, fail: Any) -> list[float]:
    """The real weights of a ``packed_weights`` object (module docstring)."""
    if (not isinstance(packed, dict) or packed.get("encoding") != PACKED_ENCODING
            or packed.get("units_per_disc") != DISC_UNITS or not isinstance(packed.get("data"), str)):
        raise fail(f'"packed_weights" is missing or not {{"encoding": "{PACKED_ENCODING}", '
                   f'"units_per_disc": {DISC_UNITS}, "data": ...}}')
    try:
        stream = base64.b64decode(packed["data"], validate=True)
    except (binascii.Error, ValueError):
        raise fail('"packed_weights" data is not base64') from None
    try:
        raw = inflate_bounded(stream, 4 * n_weights, '"packed_weights"')
    except UserFileError as exc:
        raise fail(f"{exc} (the network's {n_weights:,} int32 weights)") from None
    unpacked: list[float] = (np.frombuffer(raw, dtype="<i4").astype(np.float64) / DISC_UNITS).tolist()
    return unpacked


def read_network_file(path: str | Path) -> NetworkIndividual:
    """The network in the file at ``path`` (at most MAX_FILE_BYTES).

    Raises:
        NetworkFileError: one line naming the file and the problem.
    """
    source = str(path)
    try:
        text = user_text(read_user_file(path, "network file", MAX_FILE_BYTES), source)
    except UserFileError as exc:
        raise NetworkFileError(str(exc)) from None
    return parse_network_file(text, source)


def write_network_file(individual: NetworkIndividual, path: str | Path, force: bool = True) -> None:
    """Write ``individual`` to ``path`` as a network file, whole or not at
    all; an existing file or symbolic link is replaced only with ``force``,
    a link itself and never its target
    (:func:`~genethello.core.frontend.user_files.write_user_file`).

    Raises:
        NetworkFileError: one line when the file cannot be written.
    """
    try:
        write_user_file(path, network_file_text(individual), "network file", force)
    except UserFileError as exc:
        raise NetworkFileError(str(exc)) from None

