"""genethello.core.families: what a player is, behind one interface.

A family is a kind of individual with its text, its evaluator and its stored
payload (``registry``: ``ChromosomeFamily`` and ``FAMILIES``). GeneThello's
chromosomes (``chromosome``), n-tuple networks (``networks``,
``network_family``, ``network_files``) and the names a player may be given
(``individual_names``: ids, files, shipped networks). It may import the
engine and the evaluation; the cluster reaches individuals only through
these modules.
"""
