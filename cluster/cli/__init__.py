"""The ``genethello`` command line: one module per group of commands."""
