"""The fewest moves over a board in pieces, one class of finish holes a piece
(pegsolver.moves.shortest_by_finish): the same answers as the whole search, solutions
replayed by independent code, stops and bad input."""
import pytest

from pegsolver import Board, Cancel, Limit, find_variant
from pegsolver.engine import move_pieces
from pegsolver.engine.moves_answer import MovesAnswer
from pegsolver.engine.outcome import Reason
from pegsolver.errors import BoardTooLargeError, GoalError, PegsolverError, UnknownHoleError
from pegsolver.moves import shortest_by_finish, shortest_over_board
from replay import replay_coords
from test_fewest_moves import SHORTEST_TRIANGLE, moves_of


def replayed(board, answer):
    """The final pegs of the answer's solution, replayed from hole coordinates alone, and its moves."""
    coords = board.shape.coords
    pegs = {coords[h] for h in range(board.shape.size) if answer.start >> h & 1}
    final = replay_coords(board.shape.rules, coords, pegs, [(coords[j.from_hole], coords[j.to_hole])
                                                              for j in answer.jumps])
    return final, moves_of(coords, answer.jumps)


@pytest.mark.parametrize("side", sorted(SHORTEST_TRIANGLE))
def test_triangles_in_pieces_give_the_published_fewest_moves(side):
    board = find_variant(f"triangle{side}").board()
    ended = []
    a = shortest_by_finish(board, told=lambda f, x: ended.append(f))
    assert a.reason is Reason.SOLVED and a.lower_bound == a.upper_bound == SHORTEST_TRIANGLE[side]
    final, moves = replayed(board, a)
    assert len(final) == 1 and moves == SHORTEST_TRIANGLE[side]
    assert bin(a.start).count("1") == board.shape.size - 1   # a single-vacancy start
    # one piece a class of finish holes, each reported as it ended
    assert [f for f, _ in a.pieces] == board.shape.hole_classes() and set(ended) <= set(board.shape.hole_classes())
    assert a.expanded == sum(x.expanded for _, x in a.pieces) > 0


@pytest.mark.parametrize("text", ["ooooo\nooooo\nooo.o", "ooo\nooo\nooo\nooo", "oo.oo\nooooo"])
def test_boards_drawn_as_text_agree_with_the_whole_search(text):
    board = Board.from_text(text)
    whole = shortest_over_board(board)
    pieces = shortest_by_finish(board)
    assert pieces.reason is whole.reason
    if whole.reason is Reason.SOLVED:
        assert pieces.lower_bound == whole.lower_bound
        final, moves = replayed(board, pieces)
        assert len(final) == 1 and moves == whole.lower_bound


def test_a_cap_below_the_answer_is_bounded_and_one_above_finds_the_fewest():
    board = find_variant("triangle7").board()   # 12 moves
    a = shortest_by_finish(board, at_most=11)
    assert a.reason is Reason.BOUNDED and a.lower_bound == 12 and not a.jumps
    assert all(x.reason is Reason.EXHAUSTED or x.reason is Reason.BOUNDED and x.lower_bound >= 12
               for _, x in a.pieces)
    b = shortest_by_finish(board, at_most=14)
    assert b.reason is Reason.SOLVED and b.upper_bound == 12


def test_chosen_finishes_answer_for_those_holes_only():
    board = find_variant("triangle5").board()
    corner = shortest_by_finish(board, finishes=["1"])   # the apex: hole 1, index 0
    assert [f for f, _ in corner.pieces] == [0] and corner.reason is Reason.SOLVED
    final, moves = replayed(board, corner)
    assert final == {board.shape.coords[0]} and moves == corner.lower_bound >= SHORTEST_TRIANGLE[5]


def test_a_memory_stop_keeps_the_bound_proved_and_claims_no_fewest():
    a = shortest_by_finish("triangle7", Limit(memory_bytes=2 << 20))
    assert a.reason is Reason.MEMORY_LIMIT and not a.optimal
    assert a.lower_bound <= SHORTEST_TRIANGLE[7]
    assert a.upper_bound is None or a.upper_bound >= a.lower_bound


def test_a_cancel_stops_every_piece_left():
    cancel = Cancel()
    seen = []

    def told(f, answer):
        seen.append(answer.reason)
        cancel.set()   # after the first piece ends
    a = shortest_by_finish("triangle7", Limit(cancel=cancel), told=told)
    assert a.reason is Reason.CANCELLED and not a.optimal
    # the next piece is not started: it ends cancelled at once, and the run with it
    assert seen[0] is Reason.BOUNDED and seen[1:] == [Reason.CANCELLED]
    assert a.lower_bound <= SHORTEST_TRIANGLE[7]


def test_the_pieces_combine_by_what_each_proved():
    solved = shortest_over_board("triangle5")   # 9 moves
    assert move_pieces.combine([(0, MovesAnswer(Reason.BOUNDED, 9)),
                                (1, MovesAnswer(Reason.EXHAUSTED, 3))]).reason is Reason.BOUNDED
    # a piece stopped below another's solution: not the fewest yet
    stopped = move_pieces.combine([(0, solved), (1, MovesAnswer(Reason.TIME_LIMIT, 7))])
    assert stopped.reason is Reason.TIME_LIMIT and stopped.lower_bound == 7 and stopped.upper_bound == 9
    # and one stopped at the solution's moves or past them: that solution is the fewest
    settled = move_pieces.combine([(0, solved), (1, MovesAnswer(Reason.TIME_LIMIT, 9))])
    assert settled.reason is Reason.SOLVED and settled.lower_bound == settled.upper_bound == 9
    assert move_pieces.combine([(0, MovesAnswer(Reason.EXHAUSTED, 4))]).reason is Reason.EXHAUSTED


def test_the_pieces_run_on_a_dask_local_cluster():
    pytest.importorskip("distributed")
    board = find_variant("triangle6").board()
    a = shortest_by_finish(board, Limit(memory_bytes=256 << 20), workers=2)
    assert a.reason is Reason.SOLVED and a.lower_bound == SHORTEST_TRIANGLE[6]
    final, moves = replayed(board, a)
    assert len(final) == 1 and moves == SHORTEST_TRIANGLE[6]


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(board="triangle11"), BoardTooLargeError, "66 holes"),
    (dict(board="triangle5", finishes=["z9"]), UnknownHoleError, "z9"),
    (dict(board="triangle5", finishes=[]), PegsolverError, "finishes names no hole"),
    (dict(board="triangle5", workers=2, cluster="tcp://127.0.0.1:1"), PegsolverError, "give one of them"),
    (dict(board="triangle5", workers=0), PegsolverError, "workers must be"),
    (dict(board="triangle5", at_most=-1), ValueError, "at_most"),
    (dict(board="triangle5", told=3), PegsolverError, "told"),
    (dict(board="triangle5", finishes="14"), PegsolverError, "finishes must be a list of holes"),   # not 1 and 4
    (dict(board=Board.from_text("o")), GoalError, "has 1 hole: a single-vacancy problem needs at least 2"),
])
def test_bad_input_is_refused_before_any_search(kwargs, error, message):
    with pytest.raises(error, match=message):
        shortest_by_finish(**kwargs)


def test_a_finish_every_start_is_ruled_out_of_is_settled_without_a_search():
    # triangle 7: position classes rule out a corner finish from every single vacancy (a
    # trial's piece for it ran to its limits); the other pieces keep only the starts allowed
    board = find_variant("triangle7").board()
    a = shortest_by_finish(board, finishes=[0])
    assert a.reason is Reason.EXHAUSTED and a.expanded == 0 and not a.jumps
    assert move_pieces.reachable_starts(board, 0) == []
    starts = move_pieces.reachable_starts(board, 1)
    assert 0 < len(starts) < board.shape.size   # 9 of 28


def test_a_board_without_solutions_is_exhausted_not_bounded():
    # a trial's board: pieces bounded past the most moves any solution has (holes - 2)
    board = Board.from_text("ooo#\noooo\noo#o", rules="diagonal")
    assert shortest_over_board(board).reason is Reason.EXHAUSTED
    a = shortest_by_finish(board, Limit(memory_bytes=64 << 20))
    assert a.reason is Reason.EXHAUSTED and all(x.reason is Reason.EXHAUSTED for _, x in a.pieces)


def test_told_hears_each_piece_with_the_bound_of_its_rounds_before():
    heard = {}

    def told(f, answer):
        assert answer.lower_bound >= heard.get(f, 0)   # never weaker than what it heard before
        heard[f] = answer.lower_bound
    a = shortest_by_finish("triangle7", told=told)
    assert all(heard[f] == x.lower_bound for f, x in a.pieces if f in heard)


def test_ctrl_c_in_told_stops_the_run_with_an_answer():
    def told(f, answer):
        raise KeyboardInterrupt
    a = shortest_by_finish("triangle7", told=told)
    assert a.reason is Reason.INTERRUPTED and not a.optimal and a.lower_bound <= SHORTEST_TRIANGLE[7]
