"""Boards as SAT models (python-sat, with DIMACS export) and as CP-SAT models (OR-Tools)
(imported as ``mjsat.encoders``).

Several SAT encodings (layered parallel steps, parallel steps with group parities,
pairwise order, acyclicity), each with an
``IDPool`` keyed by meaningful tuples and a decoder from a model to a move list; a CP-SAT
model; DIMACS out and back; DRUP-certified ``unsolvable``.
"""
