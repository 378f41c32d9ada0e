"""Issue 32's "Python for long runs": on_best, target, improve and Status.

No test here asserts a duration: each checks the order of events (calls, scores, exceptions)
and lets a time limit or a child process's timeout guard against a run that never ends.
"""

import _thread
import json
import signal
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import edgematch
from conftest import python_that_ctrl_c_reaches


def score_run(instance, **kwargs):
    """A score search with no time limit recording each on_best call as (board, score,
    seconds, thread id); it must end by itself (a full solution, or the target). A guard
    interrupts it after 10 minutes, which fails the test (it never ends when it works)."""
    calls = []

    def on_best(board, score, seconds):
        calls.append((board, score, seconds, threading.get_ident()))

    guard = threading.Timer(600, _thread.interrupt_main)
    guard.start()
    try:
        result = edgematch.solve(instance, solver="search", objective="score", on_best=on_best, **kwargs)
    except KeyboardInterrupt:
        pytest.fail(f"the score search did not end by itself; calls: {[c[1] for c in calls]}")
    finally:
        guard.cancel()
    return result, calls


def test_on_best_gets_each_verified_best_in_order():
    """Catches: on_best never called, called with the walk's own count instead of the checker's,
    with a board that is not full or fails the checker, out of order or with a repeated score,
    from the caller's thread, or a result that is not the last best reported."""
    instance = edgematch.generate(13, seed=3)
    result, calls = score_run(instance, target=instance.max_score * 3 // 4)
    assert calls, "on_best was never called"
    scores = [score for _, score, _, _ in calls]
    assert all(a < b for a, b in zip(scores, scores[1:])), scores
    seconds = [s for _, _, s, _ in calls]
    assert all(a <= b for a, b in zip(seconds, seconds[1:])), seconds
    for board, score, _, thread in calls:
        assert isinstance(board, edgematch.Board) and board.placed == instance.width * instance.height
        assert edgematch.verify(instance, board).score == score
        assert thread != threading.get_ident()
    assert result.score == scores[-1]
    assert result.board == calls[-1][0]


def test_the_gil_is_free_between_on_best_calls():
    """Catches: solve holding the GIL while the score search runs when on_best is given
    (another Python thread would make no progress until solve returns)."""
    instance = edgematch.generate(12, seed=3)
    progress = []
    done = threading.Event()
    started = threading.Event()

    def ticker():
        started.set()
        while not done.is_set():
            progress.append(1)
            done.wait(0.005)

    thread = threading.Thread(target=ticker)
    thread.start()
    started.wait()
    before = len(progress)
    seen = []
    # Half the joins: reached within seconds (the time limit only guards against a hang).
    edgematch.solve(instance, solver="search", objective="score", time_limit=600, threads=1,
                    target=instance.max_score // 2, on_best=lambda b, s, t: seen.append(len(progress)))
    during = len(progress) - before
    done.set()
    thread.join()
    assert seen and during >= 5, f"{during} ticks of another thread while solve ran"


class Boom(Exception):
    pass


def test_an_exception_in_on_best_stops_the_run_and_is_raised():
    """Catches: an exception from on_best swallowed, replaced by another, the run going on
    after it (the child solves with no time limit: it would never end), or on_best called
    again after it raised."""
    script = textwrap.dedent("""
        import edgematch
        class Boom(Exception):
            pass
        calls = []
        def on_best(board, score, seconds):
            calls.append(score)
            raise Boom(f"stop at {score}")
        try:
            edgematch.solve(edgematch.generate(16, seed=1), solver="search", objective="score",
                            on_best=on_best)
        except Boom as e:
            print("raised", e, len(calls), flush=True)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300).stdout
    assert out.startswith("raised stop at ") and out.split()[-1] == "1", out
    # In process too: the very exception object comes back, with its traceback.
    instance = edgematch.generate(8, seed=1)
    raised = Boom("mine")

    def on_best(board, score, seconds):
        raise raised

    with pytest.raises(Boom) as info:
        edgematch.solve(instance, solver="search", objective="score", time_limit=30, on_best=on_best)
    assert info.value is raised


def test_ctrl_c_during_a_run_with_on_best_raises_keyboard_interrupt():
    """Catches: Ctrl-C no longer interrupting a score run that has a callback, or on_best
    called after solve raised KeyboardInterrupt."""
    script = textwrap.dedent("""
        import sys, time, edgematch
        def on_best(board, score, seconds):
            print("best", score, flush=True)
        try:
            edgematch.solve(edgematch.generate(16, seed=1), solver="search", objective="score",
                            on_best=on_best, time_limit=600)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            time.sleep(0.5)
            sys.exit(7)
    """)
    child = python_that_ctrl_c_reaches(script)
    assert child.stdout.readline().startswith("best ")
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 7, (child.returncode, out)
    lines = out.split("\n")
    assert "interrupted" in lines and all(not line.startswith("best") for line in lines[lines.index("interrupted"):])


def test_target_stops_the_score_search_once_reached():
    """Catches: target ignored (the run, with no time limit on a board it cannot solve, would
    never end: its guard fails the test), or the run stopping before it is reached; and
    target or on_best accepted where they mean nothing."""
    instance = edgematch.generate(14, seed=1)
    target = instance.max_score // 2
    result, calls = score_run(instance, target=target)
    scores = [score for _, score, _, _ in calls]
    assert result.score >= target and scores[-1] == result.score
    assert result.status == edgematch.Status.UNKNOWN
    with pytest.raises(edgematch.Error, match="target"):
        edgematch.solve(instance, objective="score", target=instance.max_score + 1)
    with pytest.raises(edgematch.Error, match="target"):
        edgematch.solve(instance, target=10)
    with pytest.raises(edgematch.Error, match="on_best"):
        edgematch.solve(instance, on_best=print)
    with pytest.raises(edgematch.Error, match="on_best: expected a callable"):
        edgematch.solve(instance, objective="score", on_best=42)


def swapped(instance, solution):
    """The solution with two interior, non-clue pieces swapped (a worse full board)."""
    pieces, rotations = solution.pieces.copy(), solution.rotations.copy()
    clues = {(r, c) for r, c, _, _ in instance.clues}
    inner = [(r, c) for r in range(1, instance.height - 1) for c in range(1, instance.width - 1)
             if (r, c) not in clues]
    a, b = inner[0], inner[-1]
    pieces[a], pieces[b] = pieces[b], pieces[a]
    rotations[a], rotations[b] = rotations[b], rotations[a]
    return edgematch.Board.from_arrays(pieces, rotations, instance)


def test_improve_repairs_a_full_board_and_reports_each_better_one(tmp_path):
    """Catches: improve returning a worse or unchecked board, a wrong score, on_best not called,
    called out of order or with a board the checker scores otherwise; a board file refused;
    a partial board refused (or accepted with its clue cells empty)."""
    instance = edgematch.generate(6, frame_colours=3, interior_colours=6, seed=5)
    solution = edgematch.solve(instance, solver="search", time_limit=60).board
    board = swapped(instance, solution)
    before = edgematch.verify(instance, board).score
    assert before < instance.max_score
    calls = []
    result = edgematch.improve(instance, board, time_limit=120, workers=1,
                               on_best=lambda b, s, t: calls.append((b, s)))
    assert result.status == edgematch.Status.SOLVED and result.score == instance.max_score
    assert edgematch.verify(instance, result.board).valid
    scores = [before] + [s for _, s in calls]
    assert all(a < b for a, b in zip(scores, scores[1:])), scores
    assert all(edgematch.verify(instance, b).score == s for b, s in calls)
    assert calls[-1][0] == result.board
    assert result.stats["from"] == before and result.stats["to"] == result.score
    # A file, and a target met at once (the board given already scores it): nothing to do.
    board.save(tmp_path / "worse.json")
    again = edgematch.improve(instance, tmp_path / "worse.json", target=before, time_limit=60)
    assert again.score == before and again.stats["rounds"] == 0 and again.status == "unknown"
    # A partial board is finished then improved; one with its clue cells empty breaks a hard rule.
    pieces, rotations = board.pieces.copy(), board.rotations.copy()
    pieces[0, 1:3], rotations[0, 1:3] = -1, -1
    pieces[2, 4], rotations[2, 4] = -1, -1
    partial = edgematch.Board.from_arrays(pieces, rotations, instance)
    finished = edgematch.improve(instance, partial, time_limit=120, workers=1)
    assert finished.status == edgematch.Status.SOLVED
    assert edgematch.verify(instance, finished.board).valid
    empty = edgematch.Board.from_arrays(np.full((6, 6), -1), np.full((6, 6), -1), instance)
    with pytest.raises(edgematch.Error, match="clue"):
        edgematch.improve(instance, empty, time_limit=5)
    with pytest.raises(edgematch.Error, match="target"):
        edgematch.improve(instance, board, target=instance.max_score + 1)


def test_improve_re_raises_the_exception_of_on_best():
    """Catches: an exception in improve's on_best swallowed or not stopping the repair."""
    instance = edgematch.generate(6, frame_colours=3, interior_colours=6, seed=5)
    board = swapped(instance, edgematch.solve(instance, solver="search", time_limit=60).board)
    calls = []

    def on_best(board, score, seconds):
        calls.append(score)
        raise Boom("enough")

    with pytest.raises(Boom, match="enough"):
        edgematch.improve(instance, board, time_limit=120, workers=1, on_best=on_best)
    assert len(calls) == 1


def test_status_is_a_str_enum_equal_to_the_plain_strings():
    """Catches: statuses returned as plain strings (no enum) or as an enum that no longer
    compares, prints or serializes as the plain string users test for today."""
    assert issubclass(edgematch.Status, str)
    assert [s.value for s in edgematch.Status] == ["solved", "infeasible", "unknown", "interrupted"]
    instance = edgematch.generate(4, frame_colours=2, interior_colours=3, seed=1)
    result = edgematch.solve(instance, solver="search", time_limit=60)
    assert result.status is edgematch.Status.SOLVED
    assert result.status == "solved" and "solved" == result.status
    assert str(result.status) == f"{result.status}" == "solved"
    assert json.dumps({"status": result.status}) == '{"status": "solved"}'
    assert result.status in ("solved", "unknown")
    assert edgematch.Status("interrupted") is edgematch.Status.INTERRUPTED
    assert 'status="solved"' in repr(result)
