"""hitgrid.find_pairs and hitgrid.PairFinder: the pairs of the C++ library (the hitgrid
command on the same scene, and the brute-force reference), every input layout and dtype
by the documented rule, errors with the library's message, the GIL released."""
import subprocess

import numpy as np
import pytest

import hitgrid


def pairs_set(p):
    return {(int(k0), int(i0), int(k1), int(i1)) for (i0, i1), (k0, k1) in zip(p.ids, p.kinds)}


def test_uniform_matches_the_command_and_every_method(tmp_path, cli):
    scene = hitgrid.generate("mixed", 20000, 7)
    path = tmp_path / "scene.txt"
    hitgrid.write_scene(str(path), *scene)
    subprocess.run([cli, "pairs", str(path), "-o", str(tmp_path / "pairs.txt")], check=True)
    expected = hitgrid.read_pairs(str(tmp_path / "pairs.txt"))
    got = hitgrid.find_pairs(*scene)
    assert len(got.ids) > 1000
    np.testing.assert_array_equal(got.ids, expected.ids)
    np.testing.assert_array_equal(got.kinds, expected.kinds)
    assert got.ids.dtype == np.uint32 and got.kinds.dtype == np.uint8 and got.ids.shape == (len(got.ids), 2)
    for options in ({"threads": 1}, {"threads": 2, "isa": "scalar"}, {"method": "sweep_and_prune"},
                    {"cell_size": 0.25}):
        again = hitgrid.find_pairs(*scene, **options)
        np.testing.assert_array_equal(again.ids, expected.ids)
        np.testing.assert_array_equal(again.kinds, expected.kinds)


def test_pairs_are_sorted_lower_first_and_touching_counts():
    segments = np.array([[0, 0, 2, 2], [2, 2, 4, 0]], dtype=np.float32)  # shared endpoint
    circles = np.array([[1, 1, 0.5]], dtype=np.float32)
    boxes = np.array([[2, 2, 3, 3], [3, 3, 5, 5]], dtype=np.float32)     # corner to corner
    p = hitgrid.find_pairs(segments=segments, circles=circles, boxes=boxes)
    S, C, B = hitgrid.SEGMENT, hitgrid.CIRCLE, hitgrid.BOX
    assert [tuple(map(int, (k[0], i[0], k[1], i[1]))) for i, k in zip(p.ids, p.kinds)] == [
        (S, 0, S, 1), (S, 0, C, 0), (S, 0, B, 0), (S, 1, B, 0), (B, 0, B, 1)]


def test_layouts_read_in_place_give_the_same_pairs():
    scene = hitgrid.generate("uniform", 5000, 3)
    expected = pairs_set(hitgrid.find_pairs(*scene))
    s = scene.segments
    fortran = np.asfortranarray(s)
    wide = np.zeros((len(s), 8), dtype=np.float32)
    wide[:, ::2] = s                                  # every other column
    reversed_rows = s[::-1]                           # negative stride: ids reversed
    assert pairs_set(hitgrid.find_pairs(segments=fortran)) == expected
    assert pairs_set(hitgrid.find_pairs(segments=wide[:, ::2])) == expected
    n = len(s)
    got = {(k0, n - 1 - i0, k1, n - 1 - i1) for (k0, i0, k1, i1) in pairs_set(hitgrid.find_pairs(segments=reversed_rows))}
    assert {(k0, min(i0, i1), k1, max(i0, i1)) for (k0, i0, k1, i1) in got} == expected


def test_other_dtypes_round_to_the_nearest_float32():
    # 1 + 2^-24 lies halfway between the float32s 1 and 1 + 2^-23: to even, 1, where the
    # segment touches the box; rounded up it would miss it.
    x = np.array([[1 + 2.0 ** -24, 0.0, 3.0, 0.0]], dtype=np.float64)
    box = np.array([[0.0, -1.0, 1.0, 1.0]], dtype=np.float32)
    assert len(hitgrid.find_pairs(segments=x, boxes=box).ids) == 1
    above = np.array([[1 + 2.0 ** -23, 0.0, 3.0, 0.0]], dtype=np.float64)  # a float32: kept
    assert len(hitgrid.find_pairs(segments=above, boxes=box).ids) == 0
    # Integers (exact), and Python lists.
    assert len(hitgrid.find_pairs(segments=np.array([[1, 0, 3, 0]]), boxes=box).ids) == 1
    assert len(hitgrid.find_pairs(segments=[[1, 0, 3, 0]], boxes=[[0, -1, 1, 1]]).ids) == 1
    # Past float32's range: refused, naming the element; float32 max itself is fine.
    big = np.array([[0, 0, 1e39, 0]], dtype=np.float64)
    with pytest.raises(ValueError, match=r"segments\[0, 2\]: 1e\+39 is beyond float32's range"):
        hitgrid.find_pairs(segments=big)
    hitgrid.find_pairs(segments=np.array([[0, 0, np.finfo(np.float32).max, 0]], dtype=np.float64))


def test_errors_name_the_shape_and_the_argument():
    circles = np.array([[0, 0, 1], [0, 0, np.nan]], dtype=np.float32)
    with pytest.raises(hitgrid.InvalidShapeError, match="^circle 1: r is NaN$") as e:
        hitgrid.find_pairs(circles=circles)
    assert isinstance(e.value, ValueError) and isinstance(e.value, hitgrid.Error)
    with pytest.raises(ValueError, match="box 0: inverted box: minx 2 > maxx 1"):
        hitgrid.find_pairs(boxes=[[2, 0, 1, 1]])
    with pytest.raises(ValueError, match=r"segments: expected an \(N, 4\) array, got shape \(3,\)"):
        hitgrid.find_pairs(segments=[1, 2, 3])
    with pytest.raises(TypeError, match="complex128 is not a real number type"):
        hitgrid.find_pairs(circles=np.zeros((2, 3), dtype=np.complex128))
    with pytest.raises(ValueError, match="unknown isa 'avx9'"):
        hitgrid.find_pairs(isa="avx9")
    with pytest.raises(hitgrid.Error, match="cell"):
        hitgrid.find_pairs(cell_size=-1.0)


def test_empty_input_gives_empty_arrays():
    p = hitgrid.find_pairs()
    assert p.ids.shape == (0, 2) and p.kinds.shape == (0, 2)
    assert hitgrid.find_pairs(segments=np.empty((0, 4), np.float32)).ids.shape == (0, 2)


def test_pair_finder_keeps_memory_and_gives_it_back():
    finder = hitgrid.PairFinder(threads=2)
    scene = hitgrid.generate("clustered", 20000, 2)
    first = finder.find_pairs(*scene)
    assert finder.kept_bytes > 0
    second = finder.find_pairs(*scene)
    np.testing.assert_array_equal(first.ids, second.ids)
    finder.release_memory()
    assert finder.kept_bytes == 0
    np.testing.assert_array_equal(hitgrid.find_pairs(*scene).ids, first.ids)
    hitgrid.release_memory()


def test_the_gil_is_released_while_pairs_are_found(assert_releases_gil):
    scene = hitgrid.generate("uniform", 1_000_000, 1)
    hitgrid.find_pairs(*scene, threads=1)  # warm
    assert_releases_gil(lambda: hitgrid.find_pairs(*scene, threads=1))
