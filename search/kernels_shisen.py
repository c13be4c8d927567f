"""numba kernels of the pairing-set search for rectangular Shisen-Sho (seed 002).

Apply and scan round over the groups until nothing changes, with the path test of
:func:`mjsat.shisen.connectable` on a flat occupancy grid with its margin (``sh`` is
``(cy, cx, h, w)``: each tile's cell and the grid's shape). The test walks the grid's
cells (:func:`_connect`), or reads the grid's row and column bitsets when the workspace
has them (:data:`~mjsat.search.config.W_BITS`, :mod:`mjsat.search.kernels_bits`); apply
and scan keep both up to date. The pure-Python references are
:func:`mjsat.shisen.connectable` and :class:`~mjsat.search.pairing.PythonSearch`;
:mod:`mjsat.search.kernels` dispatches to these kernels for the kind
:data:`~mjsat.search.pairing.SHISEN`, and the tests compare them.
"""

from __future__ import annotations

from numba import njit

from mjsat.search.config import (
    JIT_FLAGS,
    R_FREEZE,
    R_FREEZE_PAIR,
    W_BITS,
    W_GRID,
    W_HOLD,
    W_HOLD_BITS,
    W_OPENED,
    W_SCAN_BITS,
    W_SCAN_GRID,
    W_SCAN_PRESENT,
    W_SCAN_QUEUED,
)
from mjsat.search.kernels_bits import _bits_connect, _bits_place, _bits_put, _bits_take, _bits_trees
from mjsat.search.kernels_sh3d import _s3_grid, _s3_ok, _s3_put, _s3_take

# --------------------------------------------------------------------------- Shisen-Sho


@njit(**JIT_FLAGS)
def _connect(grid, h, w, ya, xa, yb, xb):
    """The path test of :func:`mjsat.shisen.connectable` on a flat grid with its margin.

    The two end cells are emptied for the test and put back afterwards.

    Parameters
    ----------
    grid : uint8[h * w]
        The occupancy grid, row by row (1: a tile).
    h, w : int
        Its shape.
    ya, xa, yb, xb : int
        The two end cells.
    """
    if ya == yb and xa == xb:
        return False
    sa = grid[ya * w + xa]
    sb = grid[yb * w + xb]
    grid[ya * w + xa] = 0
    grid[yb * w + xb] = 0
    a0 = xa
    while a0 > 0 and grid[ya * w + a0 - 1] == 0:
        a0 -= 1
    a1 = xa
    while a1 < w - 1 and grid[ya * w + a1 + 1] == 0:
        a1 += 1
    b0 = xb
    while b0 > 0 and grid[yb * w + b0 - 1] == 0:
        b0 -= 1
    b1 = xb
    while b1 < w - 1 and grid[yb * w + b1 + 1] == 0:
        b1 += 1
    r0 = ya
    while r0 > 0 and grid[(r0 - 1) * w + xa] == 0:
        r0 -= 1
    r1 = ya
    while r1 < h - 1 and grid[(r1 + 1) * w + xa] == 0:
        r1 += 1
    s0 = yb
    while s0 > 0 and grid[(s0 - 1) * w + xb] == 0:
        s0 -= 1
    s1 = yb
    while s1 < h - 1 and grid[(s1 + 1) * w + xb] == 0:
        s1 += 1
    found = False
    lo, hi = min(xa, xb), max(xa, xb)
    for y in range(max(r0, s0), min(r1, s1) + 1):
        ok = True
        for x in range(lo, hi + 1):
            if grid[y * w + x] != 0:
                ok = False
                break
        if ok:
            found = True
            break
    if not found:
        lo, hi = min(ya, yb), max(ya, yb)
        for x in range(max(a0, b0), min(a1, b1) + 1):
            ok = True
            for y in range(lo, hi + 1):
                if grid[y * w + x] != 0:
                    ok = False
                    break
            if ok:
                found = True
                break
    grid[ya * w + xa] = sa
    grid[yb * w + xb] = sb
    return found


# The apply and the scan below serve both games: ``d3`` (a compile-time-cheap bool) picks
# the rectangular grid's cell of a tile or the Mahjong grid's four half-tile cells
# (:mod:`mjsat.search.kernels_sh3d`).


@njit(**JIT_FLAGS)
def _sh_grid(d3, pres, sh, grid, bits):
    """Fill ``grid`` (``uint8[h * w]``) and its bitsets ``bits`` (``uint64[B]``, empty when
    the pair test walks cells) with the occupancy of ``pres``; ``d3``: the Mahjong grid
    (:mod:`mjsat.search.kernels_sh3d`) instead of the rectangle; ``pres``, ``sh``: see
    :mod:`mjsat.search.kernels`.
    """
    if d3:
        _s3_grid(pres, sh, grid, bits)
        return
    cy, cx, h, w = sh[0], sh[1], sh[2], sh[3]
    grid[:] = 0
    for t in range(pres.shape[0]):
        if pres[t]:
            grid[cy[t] * w + cx[t]] = 1
    if bits.shape[0] > 0:
        bits[:] = 0
        for t in range(pres.shape[0]):
            if pres[t]:
                _bits_put(bits, h, w, cy[t], cx[t], 1)
        _bits_trees(bits, 1, h, w)


@njit(**JIT_FLAGS)
def _sh_ok(d3, a, b, sh, grid, bits):
    """Can tiles ``a`` and ``b`` pair on the occupancy ``grid`` (``uint8[h * w]``)? On its
    bitsets ``bits`` (``uint64[B]``) unless they are empty. ``d3`` as in
    :func:`_sh_grid`; ``sh``: see :mod:`mjsat.search.kernels`.
    """
    if d3:
        return _s3_ok(a, b, sh, grid, bits)
    cy, cx = sh[0], sh[1]
    if bits.shape[0] > 0:
        return _bits_connect(bits, sh[2], sh[3], cy[a], cx[a], cy[b], cx[b])
    return _connect(grid, sh[2], sh[3], cy[a], cx[a], cy[b], cx[b])


@njit(**JIT_FLAGS)
def _sh_take(d3, t, pres, sh, grid, bits):
    """Take tile ``t`` off ``pres``, ``grid`` (``uint8[h * w]``) and its bitsets ``bits``
    (``uint64[B]``, empty when the pair test walks cells); ``d3`` as in :func:`_sh_grid`;
    ``sh``: see :mod:`mjsat.search.kernels`.
    """
    if d3:
        _s3_take(t, pres, sh, grid, bits)
        return
    pres[t] = 0
    grid[sh[0][t] * sh[3] + sh[1][t]] = 0
    if bits.shape[0] > 0:
        _bits_take(bits, sh[2], sh[3], sh[0][t], sh[1][t], 1)


@njit(**JIT_FLAGS)
def _sh_put(d3, t, pres, sh, grid, bits):
    """Put tile ``t`` back on ``pres``, ``grid`` (``uint8[h * w]``) and its bitsets ``bits``
    (``uint64[B]``, empty when the pair test walks cells): the inverse of :func:`_sh_take`;
    ``d3`` as in :func:`_sh_grid`; ``sh``: see :mod:`mjsat.search.kernels`.
    """
    if d3:
        _s3_put(t, pres, sh, grid, bits)
        return
    pres[t] = 1
    grid[sh[0][t] * sh[3] + sh[1][t]] = 1
    if bits.shape[0] > 0:
        _bits_place(bits, sh[2], sh[3], sh[0][t], sh[1][t], 1)


@njit(**JIT_FLAGS)
def _sh_pair_clear(d3, g, gr, sh, pres, grid, bits):
    """A pair of group ``g`` (four tiles left, no pairing) whose removal lets the other
    pair go: ``(p, q, c, d)`` to play as ``(p, q)`` then ``(c, d)``, or four ``-1``.

    Pairs are tried in member order; each is taken off ``pres``, ``grid``
    (``uint8[h * w]``) and its bitsets ``bits`` (``uint64[B]``, empty when the pair test
    walks cells) for a moment and put back. ``d3`` as in :func:`_sh_grid`; ``gr``,
    ``sh``, ``pres``: see :mod:`mjsat.search.kernels`.
    """
    gptr, gidx = gr[1], gr[2]
    for k in range(gptr[g], gptr[g + 1]):
        p = gidx[k]
        if not pres[p]:
            continue
        for j in range(k + 1, gptr[g + 1]):
            q = gidx[j]
            if not pres[q] or not _sh_ok(d3, p, q, sh, grid, bits):
                continue
            _sh_take(d3, p, pres, sh, grid, bits)
            _sh_take(d3, q, pres, sh, grid, bits)
            c = -1
            d = -1
            for m in range(gptr[g], gptr[g + 1]):
                u = gidx[m]
                if pres[u]:
                    if c < 0:
                        c = u
                    else:
                        d = u
            ok = _sh_ok(d3, c, d, sh, grid, bits)
            _sh_put(d3, q, pres, sh, grid, bits)
            _sh_put(d3, p, pres, sh, grid, bits)
            if ok:
                return p, q, c, d
    return -1, -1, -1, -1


@njit(**JIT_FLAGS)
def _sh_apply(d3, gr, sh, pres, partner, moves, mptr, opts, ws):
    """Apply (Shisen-Sho): play the pairs of ``partner``, the last two tiles of a group,
    (with ``opts[R_FREEZE]``) the frozen groups and (with ``opts[R_FREEZE_PAIR]``) the
    groups of four that clear by their own two moves (:func:`_sh_pair_clear`) on ``pres``
    in place, rounding over the groups until nothing changes; the new ``mptr``.

    Parameters
    ----------
    d3 : bool
        The Mahjong grid (:mod:`mjsat.search.kernels_sh3d`) instead of the rectangle.
    gr, sh, pres, partner, moves, mptr, opts : see :mod:`mjsat.search.kernels`.
    ws : tuple
        The workspace; ``ws[W_GRID]`` and ``ws[W_BITS]`` hold the occupancy of ``pres``
        afterwards.
    """
    gptr, gidx = gr[1], gr[2]
    grid, bits = ws[W_GRID], ws[W_BITS]
    _sh_grid(d3, pres, sh, grid, bits)
    changed = True
    while changed:
        changed = False
        for g in range(gptr.shape[0] - 1):
            live = 0
            first = -1
            for k in range(gptr[g], gptr[g + 1]):
                if pres[gidx[k]]:
                    live += 1
                    if first < 0:
                        first = gidx[k]
            if live == 0:
                continue
            if partner[first] >= 0:
                for k in range(gptr[g], gptr[g + 1]):
                    t = gidx[k]
                    p = partner[t]
                    if t < p and pres[t] and pres[p] and _sh_ok(d3, t, p, sh, grid, bits):
                        _sh_take(d3, t, pres, sh, grid, bits)
                        _sh_take(d3, p, pres, sh, grid, bits)
                        moves[mptr, 0] = t
                        moves[mptr, 1] = p
                        mptr += 1
                        changed = True
                continue
            if live == 2:
                for k in range(gptr[g], gptr[g + 1]):
                    t = gidx[k]
                    if pres[t] and t != first:
                        partner[first] = t
                        partner[t] = first
                changed = True
                continue
            if opts[R_FREEZE]:
                frozen = True
                for k in range(gptr[g], gptr[g + 1]):
                    a = gidx[k]
                    if not pres[a]:
                        continue
                    for j in range(k + 1, gptr[g + 1]):
                        b = gidx[j]
                        if pres[b] and not _sh_ok(d3, a, b, sh, grid, bits):
                            frozen = False
                            break
                    if not frozen:
                        break
                if frozen:
                    first = -1
                    for k in range(gptr[g], gptr[g + 1]):
                        t = gidx[k]
                        if pres[t]:
                            if first < 0:
                                first = t
                            else:
                                _sh_take(d3, first, pres, sh, grid, bits)
                                _sh_take(d3, t, pres, sh, grid, bits)
                                moves[mptr, 0] = first
                                moves[mptr, 1] = t
                                mptr += 1
                                first = -1
                    changed = True
                    continue
            if opts[R_FREEZE_PAIR] and live == 4:
                p, q, c, d = _sh_pair_clear(d3, g, gr, sh, pres, grid, bits)
                if p >= 0:
                    _sh_take(d3, p, pres, sh, grid, bits)
                    _sh_take(d3, q, pres, sh, grid, bits)
                    _sh_take(d3, c, pres, sh, grid, bits)
                    _sh_take(d3, d, pres, sh, grid, bits)
                    moves[mptr, 0] = p
                    moves[mptr, 1] = q
                    mptr += 1
                    moves[mptr, 0] = min(c, d)
                    moves[mptr, 1] = max(c, d)
                    mptr += 1
                    changed = True
    return mptr


@njit(**JIT_FLAGS)
def _sh_scan(d3, gr, sh, pres, partner, ws):
    """The pruning scan (Shisen-Sho) on a copy of ``pres``: True when the relaxed game
    clears it.

    Parameters
    ----------
    d3 : bool
        The Mahjong grid (:mod:`mjsat.search.kernels_sh3d`) instead of the rectangle.
    gr, sh, pres, partner : see :mod:`mjsat.search.kernels`.
    ws : tuple
        The workspace; the scan uses ``ws[W_SCAN_PRESENT]``, ``ws[W_SCAN_QUEUED]`` (the tiles
        present at the start), ``ws[W_OPENED]``, ``ws[W_SCAN_GRID]`` and ``ws[W_SCAN_BITS]``.
    """
    left = _sh_scan_start(d3, sh, pres, ws)
    return _sh_closure(d3, gr, sh, partner, ws, left, -1) == 0


@njit(**JIT_FLAGS)
def _sh_probe(d3, g, first, gr, sh, pres, partner, ws):
    """The search's probe scan (Shisen-Sho) of one pairing of group ``g``, set in
    ``partner``: True when the relaxed game clears ``pres``, as :func:`_sh_scan` answers.

    With ``first`` the group's hold scan runs (the relaxed game without removing a tile
    of ``g``) and its state is kept (:data:`~mjsat.search.config.W_HOLD` and
    :data:`~mjsat.search.config.W_HOLD_BITS`); later probes of the same group at the same
    position go on from that state. The relaxed game is a closure of monotone rules (a
    path once open stays open, a group once opened stays open), so its result does not
    depend on the order of removals and the hold scan's removals are a prefix of every
    probe's. Arguments as :func:`_sh_scan`.
    """
    ps, opened, grid, bits = ws[W_SCAN_PRESENT], ws[W_OPENED], ws[W_SCAN_GRID], ws[W_SCAN_BITS]
    keep, keep_bits = ws[W_HOLD], ws[W_HOLD_BITS]
    n, ng, cells = ps.shape[0], opened.shape[0], grid.shape[0]
    if first:
        left = _sh_scan_start(d3, sh, pres, ws)
        left = _sh_closure(d3, gr, sh, partner, ws, left, g)
        keep[0] = left
        for t in range(n):
            keep[1 + t] = ps[t]
        for h in range(ng):
            keep[1 + n + h] = opened[h]
        for c in range(cells):
            keep[1 + n + ng + c] = grid[c]
        keep_bits[:] = bits
    else:
        left = keep[0]
        for t in range(n):
            ps[t] = keep[1 + t]
        for h in range(ng):
            opened[h] = keep[1 + n + h]
        for c in range(cells):
            grid[c] = keep[1 + n + ng + c]
        bits[:] = keep_bits
    return _sh_closure(d3, gr, sh, partner, ws, left, -1) == 0


@njit(**JIT_FLAGS)
def _sh_scan_start(d3, sh, pres, ws):
    """Set up the scan state of :func:`_sh_scan` for ``pres``; the tiles present."""
    ps, start, opened = ws[W_SCAN_PRESENT], ws[W_SCAN_QUEUED], ws[W_OPENED]
    left = 0
    for t in range(pres.shape[0]):
        ps[t] = pres[t]
        start[t] = pres[t]
        left += pres[t]
    opened[:] = 0
    _sh_grid(d3, ps, sh, ws[W_SCAN_GRID], ws[W_SCAN_BITS])
    return left


@njit(**JIT_FLAGS)
def _sh_closure(d3, gr, sh, partner, ws, left, hold):
    """Play the relaxed game from the scan state until nothing more goes, never removing a
    tile of the group ``hold`` (-1: none); the tiles left (``left`` were present)."""
    ps, start, opened = ws[W_SCAN_PRESENT], ws[W_SCAN_QUEUED], ws[W_OPENED]
    grid, bits = ws[W_SCAN_GRID], ws[W_SCAN_BITS]
    gptr, gidx = gr[1], gr[2]
    changed = True
    while changed and left > 0:
        changed = False
        for g in range(gptr.shape[0] - 1):
            if g == hold:
                continue
            first = -1
            for k in range(gptr[g], gptr[g + 1]):
                if ps[gidx[k]]:
                    first = gidx[k]
                    break
            if first < 0:
                continue
            if partner[first] >= 0:
                for k in range(gptr[g], gptr[g + 1]):
                    t = gidx[k]
                    p = partner[t]
                    if t < p and ps[t] and ps[p] and _sh_ok(d3, t, p, sh, grid, bits):
                        _sh_take(d3, t, ps, sh, grid, bits)
                        _sh_take(d3, p, ps, sh, grid, bits)
                        left -= 2
                        changed = True
                continue
            if not opened[g]:
                for k in range(gptr[g], gptr[g + 1]):
                    a = gidx[k]
                    if not ps[a] or opened[g]:
                        continue
                    for j in range(k + 1, gptr[g + 1]):
                        b = gidx[j]
                        if ps[b] and _sh_ok(d3, a, b, sh, grid, bits):
                            _sh_take(d3, a, ps, sh, grid, bits)
                            _sh_take(d3, b, ps, sh, grid, bits)
                            left -= 2
                            opened[g] = 1
                            changed = True
                            break
            if opened[g]:
                for k in range(gptr[g], gptr[g + 1]):
                    t = gidx[k]
                    if not ps[t]:
                        continue
                    for j in range(gptr[g], gptr[g + 1]):
                        u = gidx[j]
                        if u != t and start[u] and _sh_ok(d3, t, u, sh, grid, bits):
                            _sh_take(d3, t, ps, sh, grid, bits)
                            left -= 1
                            changed = True
                            break
    return left
