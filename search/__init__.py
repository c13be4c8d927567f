"""Direct deciders (imported as ``mjsat.search``).

* the pairing-set search of Gimeno Fortea with de Bondt's improvements (cleaning rules,
  pruning scan, critical groups, random attempts), compiled with numba, with a
  pure-Python reference;
* height two: blocked-cycle detection with networkx that decides layouts of isolated
  stacks of height at most two in polynomial time (de Bondt, Theorem 7).
"""
