"""The game: play any board of mjsat in the browser or the terminal.

:mod:`mjsat.game.engine` is the game (no interface code), :mod:`mjsat.game.save` its
save files, :mod:`mjsat.game.difficulty` the deals of a measured difficulty,
:mod:`mjsat.game.web` the local web server and :mod:`mjsat.game.tui` the terminal
interface; ``mjsat game`` (:mod:`mjsat.game.cli`) starts either.
"""
