"""The ``genethello`` command line: one module per group of commands.

``main`` is the one entry point: it names every command with its module and
imports only the one asked for. The run commands reach a run through the
coordinator (``run/``) and every report through the read side (``reads/``);
the web page never imports this folder.
"""
