"""Type stub of the Python face of perft.pyx."""

from genethello.core.engine.board import Board

def perft(board: Board, depth: int) -> int: ...
