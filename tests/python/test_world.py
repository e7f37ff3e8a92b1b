"""hitgrid.World: frames of random changes whose pairs equal find_pairs on the same
shapes (the world's filters and bodies left at their defaults) and whose events are the
differences of consecutive pair sets; queries, casts in batches, continuous collision,
errors."""
import numpy as np
import pytest

import hitgrid

KIND_NAMES = ("segment", "circle", "box")


def random_rows(rng, kind, n, side=40.0):
    xy = np.floor(rng.uniform(0, side, (n, 2)) * 16) / 16
    if kind == "segment":
        return np.hstack([xy, xy + np.floor(rng.uniform(-2, 2, (n, 2)) * 16) / 16]).astype(np.float32)
    if kind == "circle":
        return np.hstack([xy, np.floor(rng.uniform(0, 1, (n, 1)) * 16) / 16]).astype(np.float32)
    return np.hstack([xy, xy + np.floor(rng.uniform(0, 1.5, (n, 2)) * 16) / 16]).astype(np.float32)


def world_pairs_by_find_pairs(shapes):
    """The pairs among `shapes` ({handle: (kind, row)}) by hitgrid.find_pairs, as handles."""
    by_kind = {k: [(h, r) for h, (kk, r) in shapes.items() if kk == k] for k in KIND_NAMES}
    arrays = {k + ("es" if k == "box" else "s"): np.array([r for _, r in by_kind[k]], np.float32).reshape(-1, 4 if k != "circle" else 3)
              for k in KIND_NAMES}
    p = hitgrid.find_pairs(**arrays)
    out = set()
    for (i0, i1), (k0, k1) in zip(p.ids, p.kinds):
        a, b = by_kind[KIND_NAMES[k0]][i0][0], by_kind[KIND_NAMES[k1]][i1][0]
        out.add((min(a, b), max(a, b)))
    return out


def as_set(pairs):
    assert pairs.dtype == np.uint64 and pairs.ndim == 2 and pairs.shape[1] == 2
    assert all(a < b for a, b in pairs)
    assert [tuple(p) for p in pairs] == sorted(tuple(p) for p in pairs)
    return {(int(a), int(b)) for a, b in pairs}


@pytest.mark.parametrize("threads", [1, 2])
def test_frames_match_find_pairs_and_events_are_differences(threads):
    rng = np.random.default_rng(threads)
    world = hitgrid.World(threads=threads)
    shapes = {}
    for kind in KIND_NAMES:
        rows = random_rows(rng, kind, 150)
        handles = world.create_many(kind, rows, users=np.arange(150))
        assert handles.dtype == np.uint64
        shapes.update({int(h): (kind, tuple(r)) for h, r in zip(handles, rows)})
    assert len(world) == 450
    before = set()
    total = 0
    for frame in range(12):
        handles = np.array(sorted(shapes), dtype=np.uint64)
        moved = rng.choice(handles, 60, replace=False)
        kind = KIND_NAMES[frame % 3]
        rows = random_rows(rng, kind, 60)
        world.move_many(moved, kind, rows)
        shapes.update({int(h): (kind, tuple(r)) for h, r in zip(moved, rows)})
        gone = [int(h) for h in rng.choice(np.array(sorted(shapes), dtype=np.uint64), 5, replace=False)]
        world.destroy_many(gone)
        for h in gone:
            del shapes[h]
        h = world.create("circle", (20.0, 20.0, 3.0), user=7)
        shapes[h] = ("circle", (20.0, 20.0, 3.0))
        world.step()
        now = as_set(world.pairs())
        assert now == world_pairs_by_find_pairs(shapes)
        assert as_set(world.begin_events()) == now - before
        assert as_set(world.end_events()) == before - now
        before = now
        total += len(now)
    assert total > 500


def test_queries_and_casts_in_batches():
    rng = np.random.default_rng(5)
    world = hitgrid.World()
    handles = world.create_many("box", random_rows(rng, "box", 300))
    world.create_many("segment", random_rows(rng, "segment", 300), category=2)
    casts = rng.uniform(0, 40, (50, 4)).astype(np.float32)
    hits, offsets = world.cast_many(casts)
    nearest = world.cast_nearest_many(casts)
    assert offsets.shape == (51,) and offsets[0] == 0 and offsets[-1] == len(hits) > 50
    for i, c in enumerate(casts):
        one = world.cast(c)
        np.testing.assert_array_equal(one, hits[offsets[i]:offsets[i + 1]])
        assert list(one["t"]) == sorted(one["t"])
        if len(one):
            assert nearest[i] == one[0] and world.cast_nearest(c) == one[0]
        else:
            assert nearest[i]["handle"] == 0 and world.cast_nearest(c) is None
    # Rays: no end; batched equals one at a time.
    rays = np.hstack([rng.uniform(0, 40, (30, 2)), rng.uniform(-1, 1, (30, 2))]).astype(np.float32)
    ray_hits, ray_offsets = world.cast_ray_many(rays)
    ray_nearest = world.cast_ray_nearest_many(rays)
    for i, r in enumerate(rays):
        one = world.cast_ray(r)
        np.testing.assert_array_equal(one, ray_hits[ray_offsets[i]:ray_offsets[i + 1]])
        assert (world.cast_ray_nearest(r) == one[0]) if len(one) else world.cast_ray_nearest(r) is None
        assert ray_nearest[i] == one[0] if len(one) else ray_nearest[i]["handle"] == 0
    assert len(ray_hits) > len(rays)
    with pytest.raises(hitgrid.Error, match="finite"):
        world.cast_ray((0, 0, np.inf, 0))
    # mask: only category 2 (the segments)
    masked = world.cast_many(casts, mask=2)[0]
    assert 0 < len(masked) < len(hits)
    # A point query inside a box finds it; a zero-size box is a point.
    row = world.shape(int(handles[0]))[1]
    x, y = (row[0] + row[2]) / 2, (row[1] + row[3]) / 2
    found = world.query("box", (x, y, x, y))
    assert int(handles[0]) in set(map(int, found))
    assert list(world.query("circle", (x, y, 0.0))) == list(found)


def test_continuous_collision_reports_the_wall_a_fast_circle_crosses():
    world = hitgrid.World()
    wall = world.create("segment", (10, -5, 10, 5), body="static")
    ball = world.create("circle", (0, 0, 0.5))
    world.set_displacement(ball, 30, 0)  # through the wall within the frame
    assert world.displacement(ball) == (30.0, 0.0)
    world.step()
    assert len(world.pairs()) == 0
    impacts = world.impacts()
    assert len(impacts) == 1
    assert impacts[0]["moving"] == ball and impacts[0]["other"] == wall and impacts[0]["kind"] == 3
    assert abs(impacts[0]["t"] - 9.5 / 30) < 1e-12


def test_shape_state_round_trips():
    world = hitgrid.World(margin=0.0)
    h = world.create("box", (0, 0, 1, 2), body="static", category=4, mask=5, user=99)
    assert world.shape(h) == ("box", (0.0, 0.0, 1.0, 2.0))
    assert world.filter(h) == (4, 5) and world.body(h) == "static" and world.user(h) == 99
    world.set_body(h, "dynamic")
    world.set_filter(h, 1, hitgrid.ALL)
    world.set_user(h, 3)
    world.move(h, "segment", (0, 0, 1, 1))
    assert world.shape(h) == ("segment", (0.0, 0.0, 1.0, 1.0)) and world.user(h) == 3 and h in world
    world.destroy(h)
    assert h not in world and not world.contains(h)
    world.release_memory()


def test_errors_name_the_handle_and_the_shape():
    world = hitgrid.World()
    h = world.create("circle", (0, 0, 1))
    world.destroy(h)
    with pytest.raises(hitgrid.InvalidHandleError, match=r"slot 0, generation 1\) is not a live shape") as e:
        world.move(h, "circle", (0, 0, 1))
    assert isinstance(e.value, LookupError)
    with pytest.raises(hitgrid.InvalidShapeError, match="^circle 0: negative radius -1$"):
        world.create("circle", (0, 0, -1))
    rows = np.array([[0, 0, 1, 1], [0, 0, 1, np.inf]], dtype=np.float32)
    with pytest.raises(hitgrid.InvalidShapeError, match="^box 1: maxy is infinite$"):
        world.create_many("box", rows)
    assert len(world) == 0  # all or nothing
    with pytest.raises(ValueError, match="unknown shape kind 'polygon'"):
        world.create("polygon", (0, 0, 1))
    with pytest.raises(ValueError, match="expected 3 numbers"):
        world.create("circle", (0, 0))
    box = world.create("box", (0, 0, 1, 1))
    with pytest.raises(hitgrid.Error, match="not a dynamic circle"):
        world.set_displacement(box, 1, 0)
    with pytest.raises(hitgrid.Error, match="margin"):
        hitgrid.World(margin=-1.0)
    with pytest.raises(hitgrid.Error, match="threads must be at most 4096, not 70000"):
        hitgrid.World(threads=70000)
    # Handles and users are integers: floats (truncated, NaN) and negatives (wrapped) are
    # refused, and nothing changes.
    two = world.create_many("circle", np.array([[5, 5, 1], [9, 9, 1]], dtype=np.float32), users=[7, 8])
    with pytest.raises(TypeError, match="handles: expected integers, not float64"):
        world.destroy_many(np.array([float(two[0])]))
    with pytest.raises(TypeError, match="users: expected integers, not float64"):
        world.create_many("circle", np.zeros((1, 3)), users=np.array([np.nan]))
    with pytest.raises(ValueError, match="users: expected integers >= 0, not -1"):
        world.create_many("circle", np.zeros((1, 3)), users=[-1])
    assert len(world) == 3
    world.destroy_many(np.array([], dtype=np.float64))  # no handles, whatever the dtype
    world.destroy_many(two)
    assert len(world) == 1


# Every call that takes a category or mask: (world, a live handle, the value).
MASK_CALLS = [
    lambda w, h, m: w.create("circle", (0, 0, 1), mask=m),
    lambda w, h, m: w.create("circle", (0, 0, 1), category=m),
    lambda w, h, m: w.set_filter(h, 1, m),
    lambda w, h, m: w.set_filter(h, m, 1),
    lambda w, h, m: w.query("circle", (0, 0, 1), mask=m),
    lambda w, h, m: w.cast((0, 0, 1, 1), mask=m),
    lambda w, h, m: w.cast_ray_nearest((0, -5, 0, 1), mask=m),
]


@pytest.mark.parametrize("mask", [-1, 2**64, 2**70, 1.5])
def test_masks_out_of_range_are_refused_and_change_nothing(mask):
    """Categories and masks are 64-bit unsigned: a negative one, one of 2^64 or more, or a
    float is refused (TypeError) by every call that takes one, and the world stays as it
    was."""
    world = hitgrid.World()
    a = world.create("circle", (0, 0, 1))
    b = world.create("circle", (1, 0, 1), category=2, mask=3)
    world.step()
    before = (len(world), world.pairs().tolist(), world.filter(a), world.filter(b))
    for call in MASK_CALLS:
        with pytest.raises(TypeError):
            call(world, a, mask)
    world.step()
    assert (len(world), world.pairs().tolist(), world.filter(a), world.filter(b)) == before
    assert world.begin_events().size == 0 and world.end_events().size == 0
    # The same calls take the largest mask (so what they refused was the value).
    other = hitgrid.World()
    h = other.create("circle", (0, 0, 1))
    for call in MASK_CALLS:
        call(other, h, 2**64 - 1)
