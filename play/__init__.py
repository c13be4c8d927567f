"""Play without peeking (imported as ``mjsat.play``).

One view of what a player sees (:mod:`mjsat.play.view`), one game loop
(:mod:`mjsat.play.game`), and the strategies as policies over that view
(:mod:`mjsat.play.strategies`): Stam's four with their heuristics
(:mod:`mjsat.play.heuristics`), and de Bondt's Theorem 5 player for isolated stacks of
height two with its random baseline. Around them: many games on seeded deals
(:mod:`mjsat.play.batch`), the fatal move of a lost game found with an exact solver
(:mod:`mjsat.play.fatal`), losses on height-two boards traced to Theorem 5's guess
(:mod:`mjsat.play.height2`), and the ``mjsat play`` command (:mod:`mjsat.play.cli`).
"""
