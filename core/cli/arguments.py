"""Argument types shared by the command modules."""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0 (0 usually means 'none' or 'all')."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text}")
    return value


def positive_float(text: str) -> float:
    """argparse type: a number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def non_negative_float(text: str) -> float:
    """argparse type: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return value


def add_patterns_option(parser: argparse.ArgumentParser) -> None:
    """``--patterns VERSION``: the pattern table a chromosome with a p gene
    weighs (resolved by ``pattern_table.resolve_version``)."""
    parser.add_argument("--patterns", metavar="VERSION",
                        help="pattern table for chromosomes with a p gene: patterns-v1, patterns-v2 "
                             "(or v1, v2; default: the newest installed)")


def patterns_note(evaluator) -> str:
    """', patterns VERSION' for an evaluator that weighs the pattern table, else ''."""
    version = getattr(evaluator, "pattern_version", "")
    return f", patterns {version}" if version else ""
