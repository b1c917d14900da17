"""genethello.core.evaluation: how a position is valued.

The one C-level leaf evaluation (``evaluation.pxd``: ``LeafEval`` tagged with
its ``EvaluatorKind``) and the evaluators that fill it in: GeneThello's
weighted features (``features.pxd``), the learned pattern table
(``patterns``, ``pattern_table``), n-tuple networks (``ntuple``,
``ntuple_shapes``, ``network_evaluator``). It may import
:mod:`genethello.core.engine`'s board helpers; it never imports the
families, players or protocols that use it.
"""
