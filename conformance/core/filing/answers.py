"""Which rule a wrong legal-move answer breaks, and what that verdict relies on.

One function, :func:`file_answer`, for every command that sees an engine's legal moves of a
position differ from the rules': ``run`` (a case's ``legal_moves`` or ``move_count``), ``verify``
(a generated position), ``bisect`` (the first position that differs) and the cases they suggest.
The evidence, in order:

1. **a capture no path makes** (not even a shorter one the maximum rule cuts): the rule that,
   relaxed, makes it possible (:data:`~conformance.core.filing.paths.RELAXATIONS`: a piece jumped
   twice 4.8, pieces removed at once 4.11, a man crowned mid-capture 4.15), or a capture stopped
   while it could go on (4.5, 4.6). Proof enough on its own: it requires nothing;
2. **only the largest captures under a king counted as more than one** (the listed captures are
   exactly those that take the most when a king counts 2 or 3): 4.13;
3. **no capture at all where the side must capture**: the rule of the missed captures (below);
4. **a quiet move beside captures**: 4.2 (capturing is compulsory);
5. **missed moves**: what they need (:func:`~conformance.core.filing.moves.relies_on`) that nothing the
   engine lists shows it can do -- a capture through the start square when every capture it lists
   avoids it, a king's capture at a distance when it lists only adjacent ones. When some of the
   largest captures are listed and others of the same size missed, the choice was narrowed: 4.14,
   relying on 4.13 and on what the missed ones need (an engine that cannot jump backward narrows
   it too, and is then blocked by 4.1). A king capture listed with the same pieces but not every
   landing square: 4.3;
6. **shorter captures listed beside the largest**: 4.13; **moves listed twice**: Art. 8.

``requires`` are the other rules the missed moves rely on: a verdict resting on them is blocked
when the engine fails one of them directly (the certificate's blocking).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from conformance.core.corpus.model import article_sort_key
from conformance.core.filing.base import Filing
from conformance.core.filing.moves import (
    SPECIFICITY,
    START_SQUARE_EMPTY,
    capture_traits,
    is_king_move,
    most_specific,
    relies_on,
    trait_rules,
)
from conformance.core.filing.paths import (
    RELAXATIONS,
    Key,
    Path,
    PathBudgetExceeded,
    capture_paths,
    paths_by_key,
)
from conformance.core.move_rules import move_rule
from oracle.board import BIT
from oracle.moves import Move, all_captures, legal_moves
from oracle.position import Kind, Position


def _text(key: Key) -> str:
    taken = ",".join(map(str, sorted(key[2])))
    return f"{key[0]}x{key[1]} {{{taken}}}" if key[2] else f"{key[0]}-{key[1]}"


def _sorted_rules(rules: Iterable[str], without: str) -> tuple[str, ...]:
    return tuple(sorted(set(rules) - {without}, key=article_sort_key))


def file_answer(position: Position, answer: Sequence[Key]) -> Filing | None:
    """The rule the engine's legal moves ``answer`` (with repeats, if it listed some twice) break in
    ``position``; None when they are the legal moves, each once."""
    legal = {move.key: move for move in legal_moves(position)}
    listed = Counter((key[0], key[1], frozenset(key[2])) for key in answer)
    missing = [move for key, move in legal.items() if key not in listed]
    extra = [key for key in listed if key not in legal]
    if not missing and not extra:
        twice = [key for key, n in listed.items() if n > 1]
        if not twice:
            return None
        return Filing(
            "8", why=f"lists {_text(twice[0])} more than once (once per route)", reading="move-identity"
        )
    needed = {rule for move in missing for rule in relies_on(position, move)}
    shown = _evidence(position, listed)
    captures = [key for key in legal if key[2]]
    listed_captures = [key for key in listed if key[2]]
    if listed_captures and extra:
        found = _unsound(position, [key for key in extra if key[2]], shown, listed_captures)
        if found is not None:
            return found
    if captures and any(not key[2] for key in extra):
        if listed_captures:
            return Filing("4.2", why="lists moves that are not captures where capturing is compulsory")
        return _missed(position, missing, listed, needed, shown)
    shorter = [key for key in extra if key[2]]
    if shorter:
        unable = any(_unexplained(position, move, shown)[0] for move in missing)
        weight = None if unable else _king_weight(position, set(listed_captures))
        if weight is not None:
            return Filing(
                "4.13", why=f"lists only the captures that take the most with a king counted as {weight}"
            )
        if not missing:
            most = max(len(key[2]) for key in captures)
            return Filing("4.13", why=f"lists captures of fewer pieces than the most one takes ({most})")
    if missing:
        return _missed(position, missing, listed, needed, shown)
    return _forbidden(position, extra)


def _unsound(
    position: Position, extra: Sequence[Key], shown: set[str], listed: Sequence[Key]
) -> Filing | None:
    """Captures no path makes under the rules (shorter ones the maximum cuts are made): the rule
    whose jumps such a capture, stopped where the rules go on, would have needed; else the rule
    that, relaxed, makes it. None when there are none or nothing tells."""
    try:
        complete = {move.key for move in all_captures(position)}
        unsound = [key for key in extra if key not in complete]
        if not unsound:
            return None
        stops = {key: _stop_needs(position, key, complete, shown) for key in unsound}
        relaxed = {
            key: [r.value for r in RELAXATIONS if key in paths_by_key(position, r)]
            for key in unsound
            if stops[key] is None
        }
    except PathBudgetExceeded:
        return None
    realised = Counter(rule for rules in relaxed.values() for rule in rules)
    likeness = {rule: _likeness(position, rule, listed) for rule in realised}
    chosen: Counter[str] = Counter()
    relied: set[str] = set()
    for key in unsound:
        needs = stops[key]
        if needs is not None:
            piece = position.piece_at(key[0])
            rule = most_specific(needs) if needs else ("4.6" if _is_king(piece) else "4.5")
            chosen[rule] += 1
            relied |= needs
        elif relaxed[key]:
            ranked = sorted(relaxed[key], key=lambda r: (-realised[r], likeness[r], _RELAXED_ORDER.index(r)))
            chosen[ranked[0]] += 1
            best = (realised[ranked[0]], likeness[ranked[0]])
            relied |= {r for r in ranked[1:] if (realised[r], likeness[r]) == best}  # cannot tell them apart
    if not chosen:
        most = max((len(key[2]) for key in complete), default=0)
        rule = "4.11" if any(len(key[2]) > most for key in unsound) else "4.8"
        return Filing(
            rule, why=f"lists {_text(unsound[0])}, a capture no path makes (check which rule by hand)"
        )
    rule = min(chosen, key=lambda r: (-chosen[r], _rank(r)))
    words = {
        "4.8": "unless a piece is jumped twice",
        "4.11": "unless captured pieces leave the board as they are jumped",
        "4.15": "unless a man is crowned as it reaches the far row and goes on as a king",
    }
    why = words.get(rule) if rule in realised else None
    if why is None:
        why = f"but stops where the rules go on: going on needs {_rule_name(rule)}"
    example = next(key for key in unsound if (stops[key] is not None) == (rule not in realised))
    return Filing(rule, _sorted_rules(relied, rule), f"lists {_text(example)}, a capture no path makes {why}")


def _likeness(position: Position, rule: str, listed: Sequence[Key]) -> int:
    """How far the listed captures are from the largest ones with ``rule`` relaxed (moves in one
    set and not the other): of two relaxations that make the same captures, the nearer tells."""
    relaxation = next(r for r in RELAXATIONS if r.value == rule)
    keys = paths_by_key(position, relaxation)
    most = max(len(key[2]) for key in keys)
    return len({key for key in keys if len(key[2]) == most} ^ set(listed))


_RELAXED_ORDER = ("4.15", "4.11", "4.8")
"""Of two relaxations that make one capture, the one named (when the answer's other captures do
not tell): removing pieces at once takes each piece in one jump, jumping one twice needs more."""


def _is_king(piece: object) -> bool:
    return getattr(piece, "kind", None) is Kind.KING


def _stop_needs(position: Position, key: Key, complete: set[Key], shown: set[str]) -> frozenset[str] | None:
    """For a capture an engine lists that stops where every path of the rules goes on (part-way
    along one, or on a landing square from which a king cannot go on while another one lets it):
    the rules that every way of going on from one way of getting there needs and the answer does
    not show the engine can do (of any way of getting there: the engine took one); None when no
    path of the rules passes through where it stops."""
    walks: list[_Walk] = [
        _Walk(path.route, path.taken) for path in capture_paths(position) if path.key == key
    ]
    walks += [_Walk(route, taken) for route, taken in _prefix_walks(position, key)]
    king = _is_king(position.piece_at(key[0]))
    onward = [path for path in capture_paths(position) if path.key in complete and path.key != key]
    found: list[frozenset[str]] = []
    for (
        walk
    ) in walks:  # the engine took one of these ways there; each way's continuations agree on what they need
        needs = [
            trait_rules(rest - shown - {"multi", "crowning"}, king=king)
            for path in onward
            if (rest := _divergence(walk, path)) is not None
        ]
        if needs:
            found.append(frozenset.intersection(*needs))
    if not found:
        return None
    return frozenset().union(*found)


@dataclasses.dataclass(frozen=True)
class _Walk:
    """Where a listed capture stops: its landing squares and the pieces it took, in order."""

    route: tuple[int, ...]
    taken: tuple[int, ...]


def _prefix_walks(position: Position, key: Key) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The ways the rules' paths pass through ``key`` part-way: (landings, pieces) so far."""
    found = set()
    for path in capture_paths(position):
        for done in range(1, len(path.taken)):
            if (path.route[0], path.route[done], frozenset(path.taken[:done])) == key:
                found.add((path.route[: done + 1], path.taken[:done]))
    return found


def _divergence(walk: _Walk, path: Path) -> frozenset[str] | None:
    """The traits of ``path``'s jumps from where it leaves ``walk`` (None: it does not go on from it).

    ``path`` goes on from ``walk`` when it takes more pieces, starting with the same pieces in the
    same order and the same landings, except perhaps for the last landing (a king landing further
    on, where the capture goes on)."""
    jumps = len(walk.taken)
    if len(path.taken) <= jumps or path.taken[:jumps] != tuple(walk.taken):
        return None
    if path.route[:jumps] != tuple(walk.route[:jumps]):
        return None
    start = jumps if path.route[jumps] == walk.route[jumps] else jumps - 1
    if start >= len(path.jumps):
        return None
    return frozenset().union(*path.jumps[start:])


def _rule_name(rule: str) -> str:
    return f"reading {rule}" if rule == START_SQUARE_EMPTY else f"Art. {rule}"


def _rank(rule: str) -> int:
    return SPECIFICITY.index(rule) if rule in SPECIFICITY else len(SPECIFICITY)


def _king_weight(position: Position, listed: set[Key]) -> int | None:
    """2 or 3 when the listed captures are exactly the complete captures taking the most with a
    king counted as that many pieces (and not the legal ones): the pitfall of 4.13."""
    complete = {move.key for move in all_captures(position)}
    if not listed <= complete:
        return None
    kings = position.kings(position.turn.opponent)

    def taken_kings(key: Key) -> int:
        return sum(1 for square in key[2] if BIT[square] & kings)

    for weight in (2, 3):
        score = {key: len(key[2]) + (weight - 1) * taken_kings(key) for key in complete}
        best = max(score.values())
        if {key for key, value in score.items() if value == best} == listed:
            return weight
    return None


def _evidence(position: Position, listed: Mapping[Key, int]) -> set[str]:
    """What the engine shows it can do: the traits every path of each capture it lists (legal or
    a shorter complete one) needs, and ``man``/``king`` when it lists such a capture at all."""
    complete = {move.key: move for move in all_captures(position)}
    shown: set[str] = set()
    for key in listed:
        move = complete.get(key)
        if move is None:
            continue
        shown.add("king" if is_king_move(position, move) else "man")
        traits = capture_traits(position, move)
        shown |= traits or set()
    return shown


def _unexplained(position: Position, move: Move, shown: set[str]) -> tuple[frozenset[str], frozenset[str]]:
    """What a missed move needs that the engine's answer does not show it can do: the rules of its
    route (a backward jump, a king's slide, the start square...), and the rules of its kind (a
    man's capture, a multiple one) when the answer has none of that kind."""
    if not move.is_capture:
        return frozenset(), frozenset({move_rule(position, move).article})
    king = is_king_move(position, move)
    traits = capture_traits(position, move)
    if traits is None:
        return relies_on(position, move) - {"4.13"}, frozenset()
    route = trait_rules(traits - shown - {"multi"}, king=king)
    kind = set()
    if ("king" if king else "man") not in shown:
        kind.add("4.3" if king else "4.2")
    if "multi" in traits and "multi" not in shown:
        kind.add("4.6" if king else "4.5")
    return route, frozenset(kind)


def _missed(
    position: Position, missing: Sequence[Move], listed: Mapping[Key, int], needed: set[str], shown: set[str]
) -> Filing:
    unexplained = [route | kind for route, kind in (_unexplained(position, move, shown) for move in missing)]
    common = frozenset.intersection(*unexplained) if unexplained else frozenset()
    candidates = common or frozenset().union(*unexplained)
    most = max((len(key[2]) for key in listed if key[2]), default=0)
    largest = max(len(move.captured) for move in missing)
    kept = any(len(key[2]) == largest for key in listed) and largest > 0
    words = ", ".join(_text(move.key) for move in missing[:3]) + (" ..." if len(missing) > 3 else "")
    if kept and not any(len(move.captured) < largest for move in missing) and most == largest:
        if _narrowed(position, missing, [key for key in listed if len(key[2]) == largest]):
            return Filing(
                "4.14",
                _sorted_rules(needed | {"4.13"}, "4.14"),
                f"misses {words}, as large as captures it lists that take more kings or are made by a king",
            )
        route = frozenset.intersection(*(r for r, _ in (_unexplained(position, m, shown) for m in missing)))
        route &= {START_SQUARE_EMPTY, "4.8"}
        if route:  # a way of capturing the engine shows nowhere in its answer
            rule = most_specific(route)
            return Filing(rule, _sorted_rules(needed, rule), f"misses {words}")
        if all(_other_landing(position, move, listed) for move in missing):
            return Filing("4.3", _sorted_rules(needed, "4.3"), f"misses landing squares of a king: {words}")
        if all(_same_ends(move, listed) for move in missing):
            return Filing(
                "move-identity",
                _sorted_rules(needed, "move-identity"),
                f"misses {words}: a capture with the same start and end as one it lists, taking other pieces",
            )
        return Filing(
            "4.14",
            _sorted_rules(needed | {"4.13"}, "4.14"),
            f"misses {words}, as large as captures it lists: the choice among them is free",
        )
    if not candidates:
        candidates = frozenset(needed - {"4.13"}) or frozenset({move_rule(position, missing[0]).article})
    rule = most_specific(candidates)
    return Filing(rule, _sorted_rules(needed, rule), f"misses {words}")


def _narrowed(position: Position, missing: Sequence[Move], kept: Sequence[Key]) -> bool:
    """Whether the largest captures kept take more kings, or are made by kings where the missed
    ones are made by men: the priorities Art. 4.14 denies (taking kings, capturing with a king)."""
    kings = position.kings(position.turn.opponent)
    own_kings = position.kings(position.turn)

    def taken(key: Key) -> int:
        return sum(1 for square in key[2] if BIT[square] & kings)

    if not kept:
        return False
    if min(taken(key) for key in kept) > max(taken(move.key) for move in missing):
        return True
    return all(BIT[key[0]] & own_kings for key in kept) and not any(
        BIT[move.from_square] & own_kings for move in missing
    )


def _same_ends(move: Move, listed: Mapping[Key, int]) -> bool:
    """Whether a capture with ``move``'s start and end, taking other pieces, is listed."""
    return any(key[:2] == (move.from_square, move.to_square) and key[2] != move.captured for key in listed)


def _other_landing(position: Position, move: Move, listed: Mapping[Key, int]) -> bool:
    """Whether ``move`` is a king's capture listed with the same pieces, ending elsewhere."""
    return is_king_move(position, move) and any(
        key[0] == move.from_square and key[2] == move.captured for key in listed
    )


def _forbidden(position: Position, extra: Sequence[Key]) -> Filing:
    """Illegal quiet moves listed where no capture exists: a king's (3.9) or a man's (3.4)."""
    for key in extra:
        piece = position.piece_at(key[0])
        if piece is not None and piece.kind is Kind.KING:
            return Filing("3.9", why=f"lists the illegal king move {_text(key)}")
    return Filing("3.4", why=f"lists the illegal step {_text(extra[0])}")
