"""genethello.cluster.breeding: from a rated generation to the next population.

Breeders behind one interface (``breeders``: ``ga``, ``random-search``,
``cma-es``), GeneThello's operators and populations (``operators``,
``population``), the networks' GA, CMA-ES and its state
(``network_breeders``, ``cma_es``, ``numerics``) and why each member is
there (``origins``). Pure, seeded decisions: no Ray, no database; it may
import the core and the config.
"""
