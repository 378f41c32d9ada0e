"""Issue 32's data side: OS errors as OSError subclasses, Instance.from_arrays, numpy arrays from Rust buffers."""

import _thread
import errno
import os
import threading

import numpy as np
import pytest

import edgematch


def test_os_errors_raise_the_matching_oserror(models, tmp_path):
    """Catches: a missing or unreadable file raising edgematch.Error (or a bare OSError)
    instead of FileNotFoundError / PermissionError with errno and filename, and malformed
    content (bad JSON, bytes that are not UTF-8) no longer raising edgematch.Error."""
    missing = tmp_path / "missing.json"
    with pytest.raises(FileNotFoundError) as info:
        edgematch.load(missing)
    assert info.value.errno == errno.ENOENT and info.value.filename == str(missing)
    instance = edgematch.load(models / "planted-10x10-f5i17-s1.json")
    with pytest.raises(FileNotFoundError):
        edgematch.load_board(tmp_path / "no-board.json", instance)
    with pytest.raises(FileNotFoundError):
        edgematch.verify(instance, tmp_path / "no-board.json")
    with pytest.raises(FileNotFoundError):
        instance.save(tmp_path / "no-such-folder" / "i.json")
    locked = tmp_path / "locked.json"
    instance.save(locked)
    locked.chmod(0)
    # Root reads any file: the check runs as an ordinary user for the duration.
    root = os.geteuid() == 0
    if root:
        os.seteuid(65534)
    try:
        with pytest.raises(PermissionError) as info:
            edgematch.load(locked)
    finally:
        if root:
            os.seteuid(0)
    assert info.value.errno == errno.EACCES and info.value.filename == str(locked)
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(edgematch.Error, match="bad.json"):
        edgematch.load(bad)
    # Read without an OS error but not UTF-8: malformed content, not an OSError.
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00" * 10)
    with pytest.raises(edgematch.Error, match="binary.txt"):
        edgematch.load(binary)


def test_instance_from_arrays_round_trips_and_names_bad_rows():
    """Catches: from_arrays building another instance than the arrays say (pieces, size,
    clues), or accepting bad values, or messages not naming the argument and row."""
    instance = edgematch.generate(6, frame_colours=3, interior_colours=4, seed=2)
    again = edgematch.Instance.from_arrays(instance.pieces, 6, 6, instance.clues)
    assert again == instance and again.name == "arrays"
    assert edgematch.solve(again, solver="search", time_limit=60).status == "solved"
    lists = edgematch.Instance.from_arrays(instance.pieces.tolist(), 6, 6, name="mine")
    assert lists.clues == [] and lists.name == "mine"
    pieces = instance.pieces
    bad = pieces.copy()
    bad[3, 1] = 300
    cases = [
        ((pieces[:, :3], 6, 6), "pieces: expected a 2-D array of shape \\(rows, 4\\)"),
        ((pieces[:35], 6, 6), "pieces: 35 rows for a 6x6 board, which needs 36"),
        ((bad, 6, 6), "pieces row 3, column 1 \\(E\\): colour 300"),
        ((pieces.astype(float), 6, 6), "pieces: expected integers"),
        ((pieces, 6, 6, [[0, 0, 1, 0], [9, 0, 2, 0]]), "clues row 1: row 9"),
        ((pieces, 6, 6, [[0, 0, 1, 0], [0, 0, 2, 0]]), "clues row 1: its cell already has clues row 0"),
        ((pieces, 6, 6, [[0, 0, 1, 0], [1, 1, 1, 0]]), "clues row 1: piece 1 is already placed"),
        ((pieces, 6, 6, [[0, 0, 36, 0]]), "clues row 0: no piece 36"),
        ((pieces, 6, 6, [[0, 0, 1, 4]]), "clues row 0: rotation 4"),
        ((pieces, 0, 6), "width and height"),
    ]
    for args, message in cases:
        with pytest.raises(edgematch.Error, match=message):
            edgematch.Instance.from_arrays(*args)


def test_arrays_come_from_rust_buffers():
    """Catches: the numpy arrays built through Python lists again (numpy.array(list) owns its
    data; an array over a Rust buffer has that buffer's owner as its base), a wrong dtype or
    shape, or arrays shared between calls."""
    instance = edgematch.generate(6, frame_colours=3, interior_colours=4, seed=2)
    board = edgematch.solve(instance, solver="search", time_limit=60).board
    for array, shape in ((instance.pieces, (36, 4)), (board.pieces, (6, 6)), (board.rotations, (6, 6))):
        assert isinstance(array, np.ndarray) and array.dtype == np.int32 and array.shape == shape
        assert array.base is not None and not isinstance(array.base, np.ndarray)
        assert array.flags.c_contiguous and array.flags.writeable
    mine = board.pieces
    mine[0, 0] = -5
    assert board.pieces[0, 0] != -5
    assert sorted(board.pieces.ravel().tolist()) == list(range(36))


def skip_without_fault_injection():
    if not edgematch._edgematch._FAULT_INJECTION:
        # CI builds the package with the feature and says so: there the test must run.
        assert os.environ.get("EDGEMATCH_TEST_FAULT") != "1", "built without the fault-injection feature"
        pytest.skip("built without the fault-injection feature")


@pytest.mark.parametrize("point", ["walk 1", "completion worker 0"])
def test_a_thread_that_dies_ends_the_run_with_edgematch_error(models, monkeypatch, point):
    """Catches: a score run that goes on after one of its threads died (one walk of two,
    or the only completion worker two walks start with), which with no time limit never
    ended, or an error that does not name the thread. The test build's fault injection
    panics the thread; a guard interrupts a run still going after two minutes, which fails
    the test."""
    skip_without_fault_injection()
    instance = edgematch.load(models / "planted-13x13-f5i17-s2.json")
    monkeypatch.setenv("EDGEMATCH_FAULT", f"panic:{point}")
    guard = threading.Timer(120, _thread.interrupt_main)
    guard.start()
    try:
        with pytest.raises(edgematch.Error, match=f"thread `{point}` panicked"):
            edgematch.solve(instance, solver="search", objective="score", threads=2)
    except KeyboardInterrupt:
        pytest.fail(f"the run went on after its thread `{point}` died")
    finally:
        guard.cancel()


def test_a_board_the_checker_rejects_raises_edgematch_error(models, monkeypatch):
    """Catches: a score run's board that breaks a rule (here the search's boards corrupted,
    one piece twice, by the test build's fault injection) reaching on_best, or the run
    ending without an error (before, the rejected board was dropped and the run searched
    on above it)."""
    skip_without_fault_injection()
    instance = edgematch.load(models / "planted-10x10-f5i17-s1.json")
    seen = []
    monkeypatch.setenv("EDGEMATCH_FAULT", "corrupt-board:search")
    with pytest.raises(edgematch.Error, match="failed the checker"):
        edgematch.solve(
            instance, solver="search", objective="score", time_limit=20, threads=1,
            on_best=lambda board, score, seconds: seen.append(score),
        )
    assert seen == []
