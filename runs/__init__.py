"""Runs over many boards (imported as ``mjsat.runs``).

The boards of a run, a range of seeded deals of a layout or the board files of a folder
(:mod:`mjsat.runs.boards`); sampling, deciding many deals into a resumable results file
(:mod:`mjsat.runs.sample`); cross-validation, every exact method on sets of boards with
the answers compared (:mod:`mjsat.runs.crossval`); the statistics of a run
(:mod:`mjsat.runs.stats`); and the commands ``mjsat sample`` and ``mjsat crossval``
(:mod:`mjsat.runs.cli`).
"""
