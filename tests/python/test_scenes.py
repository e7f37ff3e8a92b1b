"""hitgrid.generate and the scene and pair files: the generators bit-exact (the hitgrid
command writes the same scene), files round trip in both formats, bad files raise with
the place."""
import subprocess

import numpy as np
import pytest

import hitgrid


@pytest.mark.parametrize("family", ["uniform", "clustered", "long_tail", "mixed", "lattice"])
def test_generate_matches_the_command(tmp_path, cli, family):
    path = tmp_path / "scene.bin"
    subprocess.run([cli, "gen", family, "--n", "3000", "--seed", "9", "-o", str(path), "--binary"], check=True)
    written = hitgrid.read_scene(str(path))
    generated = hitgrid.generate(family, 3000, 9)
    for a, b in zip(written, generated):
        assert a.dtype == np.float32 and a.tobytes() == b.tobytes()
    assert sum(len(a) for a in generated) == 3000


def test_scene_files_round_trip_bit_exact(tmp_path):
    scene = hitgrid.generate("mixed", 2000, 4)
    for binary in (False, True):
        path = tmp_path / ("s.bin" if binary else "s.txt")
        hitgrid.write_scene(str(path), *scene, binary=binary)
        back = hitgrid.read_scene(str(path))
        for a, b in zip(scene, back):
            assert a.tobytes() == b.tobytes()


def test_pair_files_round_trip(tmp_path):
    pairs = hitgrid.find_pairs(*hitgrid.generate("mixed", 5000, 4))
    for binary in (False, True):
        path = tmp_path / "p"
        hitgrid.write_pairs(str(path), pairs.ids, pairs.kinds, binary=binary)
        back = hitgrid.read_pairs(str(path))
        np.testing.assert_array_equal(back.ids, pairs.ids)
        np.testing.assert_array_equal(back.kinds, pairs.kinds)
    with pytest.raises(ValueError, match="pair 0 names one shape twice"):
        hitgrid.write_pairs(str(tmp_path / "q"), [[1, 1]], [[0, 0]])


def test_bad_files_raise_with_the_place(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("s 0 0 1 1\nc 0 0 x\n")
    with pytest.raises(hitgrid.ParseError, match=r"bad.txt:2:\d+: ") as e:
        hitgrid.read_scene(str(path))
    assert isinstance(e.value, ValueError)
    with pytest.raises(hitgrid.IoError) as e:
        hitgrid.read_scene(str(tmp_path / "missing.txt"))
    assert isinstance(e.value, OSError)
    with pytest.raises(ValueError, match="unknown family 'spiral'"):
        hitgrid.generate("spiral", 10)
