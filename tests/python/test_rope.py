"""hitgrid.Rope: the nodes of docs/rope.md's hand-built cases, the same nodes as the C API's
rope (libhitgrid_c.so through ctypes) on the same random peg fields and paths, batched
paths, pegs from shapes, the documented dtype rule, errors with the library's message and
the rope unchanged, the GIL released during a path."""
import copy
import ctypes

import numpy as np
import pytest

import hitgrid


class CNode(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("peg", ctypes.c_uint32), ("side", ctypes.c_int32),
                ("half_turns", ctypes.c_uint32)]


class CRope:
    """The C API's rope (hitgrid.h), each call checked."""

    def __init__(self, lib, start, pegs):
        self.lib = lib
        lib.hitgrid_last_error.restype = ctypes.c_char_p
        lib.hitgrid_rope_length.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]
        pegs = np.ascontiguousarray(pegs, dtype=np.float32)
        self.handle = ctypes.c_void_p()
        self.check(lib.hitgrid_rope_new(ctypes.c_float(start[0]), ctypes.c_float(start[1]),
                                        pegs.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                                        ctypes.c_size_t(len(pegs)), ctypes.byref(self.handle)))

    def check(self, status):
        if status != 0:
            raise RuntimeError(self.lib.hitgrid_last_error().decode())

    def move_end(self, x, y):
        self.check(self.lib.hitgrid_rope_move_end(self.handle, ctypes.c_float(x), ctypes.c_float(y)))

    def move_start(self, x, y):
        self.check(self.lib.hitgrid_rope_move_start(self.handle, ctypes.c_float(x), ctypes.c_float(y)))

    def nodes(self):
        p = ctypes.POINTER(CNode)()
        n = ctypes.c_size_t()
        self.check(self.lib.hitgrid_rope_nodes(self.handle, ctypes.byref(p), ctypes.byref(n)))
        return [(p[i].x, p[i].y, p[i].peg, p[i].side, p[i].half_turns) for i in range(n.value)]

    def length(self):
        v = ctypes.c_double()
        self.check(self.lib.hitgrid_rope_length(self.handle, ctypes.byref(v)))
        return v.value

    def free(self):
        self.lib.hitgrid_rope_free(self.handle)


def node_list(rope):
    n = rope.nodes
    return [(float(x), float(y), int(p), int(s), int(k))
            for (x, y), p, s, k in zip(n.positions, n.pegs, n.sides, n.half_turns)]


def random_field(rng, count, side):
    """Half the pegs anywhere on a 1/64 grid, half on the integer lattice (collinear)."""
    pegs = np.floor(rng.uniform(0, side, (count, 2)) * 64) / 64
    pegs[1::2] = rng.integers(0, int(side), (len(pegs[1::2]), 2))
    return pegs.astype(np.float32)


def random_path(rng, pegs, count, side):
    """Points anywhere, short steps, exactly on pegs: the degenerate moves too."""
    out = np.empty((count, 2), dtype=np.float32)
    x, y = side / 2, side / 2
    for i in range(count):
        r = rng.integers(10)
        if r < 5:
            x, y = np.floor(rng.uniform(-side / 4, side * 1.25, 2) * 64) / 64
        elif r < 8:
            x, y = x + np.floor(rng.uniform(-2, 2) * 64) / 64, y + np.floor(rng.uniform(-2, 2) * 64) / 64
        else:
            x, y = pegs[rng.integers(len(pegs))]
        out[i] = x, y
    return out


def test_one_peg_caught_on_the_right_and_released():
    rope = hitgrid.Rope((-10, 0), np.array([[0, 0], [6, 2]], dtype=np.float32))
    assert node_list(rope) == [(-10, 0, hitgrid.ROPE_NO_PEG, 0, 0)] and rope.length == 0
    rope.move_end(10, 1)
    rope.move_end(10, -1)
    assert node_list(rope) == [(-10, 0, hitgrid.ROPE_NO_PEG, 0, 0), (0, 0, 0, -1, 0)]
    assert rope.length == pytest.approx(10 + np.sqrt(101), rel=1e-15)
    assert rope.start == (-10, 0) and rope.end == (10, -1)
    np.testing.assert_array_equal(rope.points, [[-10, 0], [0, 0], [10, -1]])
    n = rope.nodes
    assert n.positions.dtype == np.float32 and n.positions.shape == (2, 2)
    assert n.pegs.dtype == np.uint32 and n.sides.dtype == np.int8 and n.half_turns.dtype == np.uint32
    rope.move_end(10, 1)
    assert len(rope.nodes.pegs) == 1


def test_a_full_turn_counts_half_turns_and_unwinds():
    path = [(10, 1), (10, -1), (0, -10), (-10, -1), (-10, 1), (0, 10), (10, 1), (10, -1), (10, 1), (0, 10), (-10, 1),
            (-10, -1), (0, -10), (10, -1), (10, 1)]
    turns = [None, 0, 0, 0, 1, 1, 1, 2, 1, 1, 1, 0, 0, 0, None]
    rope = hitgrid.Rope((-10, 0), [[0, 0]])
    for (x, y), k in zip(path, turns):
        rope.move_end(x, y)
        n = rope.nodes
        if k is None:
            assert len(n.pegs) == 1
        else:
            assert list(n.pegs) == [hitgrid.ROPE_NO_PEG, 0] and n.sides[1] == -1 and n.half_turns[1] == k


@pytest.mark.parametrize("seed,pegs,side", [(1, 60, 20), (2, 400, 40)])
def test_the_same_nodes_as_the_c_api_on_random_paths(capi, seed, pegs, side):
    rng = np.random.default_rng(seed)
    field = random_field(rng, pegs, side)
    path = random_path(rng, field, 1500, side)
    rope = hitgrid.Rope((side / 2, side / 2), field)
    c = CRope(capi, (side / 2, side / 2), field)
    most = 0
    try:
        for i, (x, y) in enumerate(path):
            if i % 17 == 16:  # now and then the start moves instead
                rope.move_start(y, x)
                c.move_start(y, x)
            else:
                rope.move_end(x, y)
                c.move_end(x, y)
            assert node_list(rope) == c.nodes(), f"move {i}"
            assert rope.length == c.length()
            most = max(most, len(rope.nodes.pegs))
    finally:
        c.free()
    assert most >= 3


def test_move_path_is_the_moves_one_by_one():
    rng = np.random.default_rng(7)
    field = random_field(rng, 300, 40)
    path = random_path(rng, field, 2000, 40)
    one = hitgrid.Rope((20, 20), field)
    batched = hitgrid.Rope((20, 20), field)
    for k in range(0, len(path), 250):
        for x, y in path[k:k + 250]:
            one.move_end(x, y)
        batched.move_path(path[k:k + 250])
        assert node_list(one) == node_list(batched)
    batched.move_path(np.empty((0, 2), dtype=np.float32))
    batched.move_path(path[::-1][:, ::-1].astype(np.float64))  # any layout and dtype
    for x, y in path[::-1][:, ::-1]:
        one.move_end(x, y)
    assert node_list(one) == node_list(batched) and one.length == batched.length


def test_copies_are_independent():
    rope = hitgrid.Rope((-10, 0), [[0, 0], [6, 2]])
    rope.move_end(10, 1)
    rope.move_end(10, -1)
    for other in (rope.copy(), copy.copy(rope), copy.deepcopy(rope)):
        assert node_list(other) == node_list(rope)
        other.move_end(10, 1)
        assert len(other.nodes.pegs) == 1 and len(rope.nodes.pegs) == 2


def test_pegs_from_shapes_in_the_documented_order():
    rope = hitgrid.Rope.from_shapes((-8, -8), segments=[[0, 0, 4, 1]], circles=[[5, 5, 0]], boxes=[[2, -6, 3, -4]])
    np.testing.assert_array_equal(rope.pegs, [[0, 0], [4, 1], [5, 5], [2, -6], [3, -6], [3, -4], [2, -4]])
    same = hitgrid.Rope((-8, -8), rope.pegs)
    for x, y in [(20, -8), (20, 20), (-8, 20), (-8, -9)]:
        rope.move_end(x, y)
        same.move_end(x, y)
        assert node_list(rope) == node_list(same)


def test_circle_pegs_from_shapes_wrap_along_their_tangents():
    rope = hitgrid.Rope.from_shapes((-10, 0), circles=[[0, 0, 1], [30, 30, 0]])
    np.testing.assert_array_equal(rope.radii, np.array([1, 0], dtype=np.float32))
    rope.move_path(np.array([[10, 3], [10, 0]], dtype=np.float32))
    assert node_list(rope) == [(-10, 0, hitgrid.ROPE_NO_PEG, 0, 0), (0, 0, 0, -1, 0)]
    # Two tangents from (+-10, 0) and the arc between their tangent points.
    assert rope.length == pytest.approx(2 * np.sqrt(99) + 2 * np.arcsin(0.1), rel=1e-14)
    outline = rope.outline(0.01)
    assert outline.dtype == np.float32 and len(outline) > 4
    assert np.all(np.hypot(outline[:, 0], outline[:, 1]) >= 1 - 1e-6)
    with pytest.raises(hitgrid.RopeError, match=r"^rope end on its path from \(10, 0\) to \(-10, 0\) meets peg 0"):
        rope.move_end(-10, 0)
    assert node_list(rope) == [(-10, 0, hitgrid.ROPE_NO_PEG, 0, 0), (0, 0, 0, -1, 0)]



def test_a_circle_peg_pushed_through_the_rope_carries_it_and_lets_go():
    rope = hitgrid.Rope.from_shapes((-10, 0), circles=[[0, -3, 1]])
    rope.move_end(10, 0)
    rope.move_peg(0, 0, 1)  # its disc meets the rope at y = 0 and carries it over its top
    assert node_list(rope) == [(-10, 0, hitgrid.ROPE_NO_PEG, 0, 0), (0, 1, 0, -1, 0)]
    turn = np.arctan2(1, 10) + np.arcsin(1 / np.hypot(10, 1))
    assert rope.length == pytest.approx(2 * np.sqrt(100) + 2 * turn, rel=1e-14)
    with pytest.raises(hitgrid.RopeError, match=r"^peg 0: its path from \(0, 1\) to \(10, 1\) passes over the rope's end"):
        rope.move_peg(0, 10, 1)
    assert node_list(rope) == [(-10, 0, hitgrid.ROPE_NO_PEG, 0, 0), (0, 1, 0, -1, 0)]
    rope.move_peg(0, 0, -3)
    assert node_list(rope) == [(-10, 0, hitgrid.ROPE_NO_PEG, 0, 0)]
    assert rope.length == 20


def test_other_dtypes_round_to_the_nearest_float32():
    pegs64 = np.array([[0.1, 0.2], [1 + 2 ** -25, 3]])
    a = hitgrid.Rope((0, 0), pegs64)
    b = hitgrid.Rope((0, 0), pegs64.astype(np.float32))
    np.testing.assert_array_equal(a.pegs, b.pegs)
    assert a.pegs[1, 0] == 1.0
    ints = hitgrid.Rope((0, 0), np.array([[1, 2], [3, 4]], dtype=np.int64))
    np.testing.assert_array_equal(ints.pegs, [[1, 2], [3, 4]])
    wide = np.zeros((2, 4), dtype=np.float32)
    wide[:, ::2] = [[1, 2], [3, 4]]
    np.testing.assert_array_equal(hitgrid.Rope((0, 0), wide[:, ::2]).pegs, [[1, 2], [3, 4]])
    rope = hitgrid.Rope((0, 0), [])
    rope.move_end(0.1, 1 + 2 ** -25)
    assert rope.end == (float(np.float32(0.1)), 1.0)


def test_errors_name_the_point_and_leave_the_rope_unchanged():
    with pytest.raises(hitgrid.RopeError, match=r"^rope start: not a finite point \(nan, 0\)$") as e:
        hitgrid.Rope((float("nan"), 0), [[0, 0]])
    assert isinstance(e.value, ValueError) and isinstance(e.value, hitgrid.Error)
    with pytest.raises(ValueError, match=r"^peg 1: not a finite point \(3, inf\)$"):
        hitgrid.Rope((0, 0), [[0, 0], [3, np.inf]])
    with pytest.raises(ValueError, match=r"pegs: expected an \(N, 2\) array, got shape \(2, 3\)"):
        hitgrid.Rope((0, 0), np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"start: expected 2 numbers"):
        hitgrid.Rope((0, 0, 0), [[0, 0]])
    with pytest.raises(ValueError, match=r"pegs\[0, 1\]: 1e\+39 is beyond float32's range"):
        hitgrid.Rope((0, 0), [[0, 1e39]])

    rope = hitgrid.Rope((-10, 0), [[0, 0], [6, 2], [3, -4]])
    rope.move_end(10, 1)
    rope.move_end(10, -1)
    before = node_list(rope)
    with pytest.raises(ValueError, match=r"^rope end: not a finite point \(5, nan\)$"):
        rope.move_end(5, float("nan"))
    with pytest.raises(ValueError, match=r"^rope start: not a finite point \(-inf, 1\)$"):
        rope.move_start(-np.inf, 1)
    with pytest.raises(ValueError, match=r"^path point 3: not a finite point \(1, nan\)$"):
        rope.move_path([[10, 1], [10, -1], [5, 5], [1, np.nan]])
    with pytest.raises(ValueError, match=r"end\[0, 0\]: 1e\+39 is beyond float32's range"):
        rope.move_end(1e39, 0)
    with pytest.raises(hitgrid.RopeError, match=r"^peg 3: no such peg \(3 pegs\)$"):
        rope.move_peg(3, 1, 1)
    with pytest.raises(hitgrid.RopeError, match=r"^peg 0: its path from \(0, 0\) to \(6, 2\) passes over peg 1 at"):
        rope.move_peg(0, 6, 2)
    with pytest.raises(hitgrid.RopeError, match=r"^peg 1: its path from \(6, 2\) to \(14, -4\) passes over the rope's end"):
        rope.move_peg(1, 14, -4)
    assert node_list(rope) == before and rope.end == (10, -1)
    np.testing.assert_array_equal(rope.pegs, [[0, 0], [6, 2], [3, -4]])
    rope.move_peg(2, 3, -9)
    np.testing.assert_array_equal(rope.pegs[2], [3, -9])

    with pytest.raises(hitgrid.RopeError, match=r"^peg 1 \(a circle at \(5.25, 5\), radius 0.5\) touches peg 0 at \(5, 5\)"):
        hitgrid.Rope.from_shapes((0, 0), circles=[[5, 5, 0], [5.25, 5, 0.5]])
    with pytest.raises(hitgrid.InvalidShapeError, match=r"^box 0: inverted box"):
        hitgrid.Rope.from_shapes((0, 0), boxes=[[0, 0, 1, -1]])


def test_the_gil_is_released_during_a_path(assert_releases_gil):
    rng = np.random.default_rng(3)
    field = random_field(rng, 500, 100)
    path = np.floor(rng.uniform(-20, 120, (30_000, 2)) * 64).astype(np.float32) / 64
    hitgrid.Rope((50, 50), field).move_path(path[:2000])  # warm
    rope = hitgrid.Rope((50, 50), field)
    assert_releases_gil(lambda: rope.move_path(path))
