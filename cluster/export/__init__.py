"""genethello.cluster.export: stored games written out as game records.

Which games and how they are named (``records``) and writing them safely
into a folder (``files``: created exclusively, never overwriting). It reads
through :mod:`genethello.cluster.reads` and writes only files.
"""
