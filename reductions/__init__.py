"""Hard boards from 3-SAT formulas (imported as ``mjsat.reductions``).

DIMACS CNF -> Mahjong boards of isolated stacks (de Bondt, Theorem 3) -> one-level rows
(Corollary 4), and -> Shisen-Sho boards (de Bondt's Shisen-Sho paper, Theorems 2.1 and
2.2), with witness maps both ways: a satisfying assignment to a clearing sequence, and a
clearing sequence back to a satisfying assignment.
"""
