"""Play many seeded games between bots and summarise the scores."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import multiprocessing
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .bots import make_bot
from .i18n import N_
from .inputs import rule_setting
from .progress import Progress
from .records import ScoreModel
from .rules import Game, RulesError, game_rules
from .rules.game import get_spec
from .rules.kinds import AREA_NAMES
from .rules.sheet import Score
from .seeds import derived_seed as derived_seed  # importable from here too, as before it moved below the bots


def rule_argument(text: str) -> tuple[str, bool]:
    """One ``--rule NAME=true|false`` of the scripts and benchmarks (an argparse ``type``): the
    option's name and value. Whether the game has that option is checked once the game is known
    (``rules.game_rules``)."""
    setting = rule_setting(text)
    if setting is None:
        raise argparse.ArgumentTypeError(f"{text!r}: write NAME=true or NAME=false")
    return setting


def rule_options(rules: dict[str, bool]) -> str:
    """The ``--rule`` options that choose ``rules`` (each with a space before it): what
    :func:`rule_argument` reads back."""
    return "".join(f" --rule {name}={str(value).lower()}" for name, value in rules.items())


def add_rule_option(
    parser: argparse.ArgumentParser, help: str = "a rules option of the games played, e.g. --rule NAME=false"
) -> None:
    """``--rule NAME=true|false`` on a script's or benchmark's command line, once per option."""
    parser.add_argument("--rule", type=rule_argument, action="append", default=[], metavar="NAME=true|false", help=help)


def chosen_rules(parser: argparse.ArgumentParser, game_id: str, given: list[tuple[str, bool]]) -> dict[str, bool]:
    """The ``--rule`` options given, once the game is known to have each (else the parser's
    error, which says why)."""
    rules = dict(given)
    try:
        game_rules(game_id, rules)
    except RulesError as exc:
        parser.error(f"--rule: {exc}")
    return rules


def rows_written(path: Path | None) -> list[dict[str, Any]]:
    """What a script's or benchmark's run wrote to ``path`` so far (one JSON object a line; none
    without a file): given the same file, the run goes on where it stopped."""
    if path is None or not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run_and_write(
    work: Callable[[Any], dict[str, Any]], jobs: list[Any], workers: int, path: Path | None
) -> Iterator[dict[str, Any]]:
    """Each job's result, worked out in a pool of ``workers``, as it comes; each appended to
    ``path`` (a JSON line, see :func:`rows_written`) before it is handed on."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    with multiprocessing.Pool(workers) as pool:
        for row in pool.imap_unordered(work, jobs):
            if path is not None:
                with path.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            yield row


def bot_seat(players: int, game_number: int) -> int:
    """The seat of the bot under test when it plays against others: it moves round the table
    from game to game, so that no seat's advantage counts for or against it."""
    return game_number % players


def play_game(
    game_id: str,
    players: int,
    bot: str,
    seed: int,
    game_number: int,
    opponents: str | None = None,
    timings: list[float] | None = None,
    rules: dict[str, bool] | None = None,
) -> Game:
    """One seeded game: ``bot`` in every seat, or in :func:`bot_seat` with ``opponents`` in the
    others. ``timings``, if given, gets the seconds each of ``bot``'s decisions took. ``rules``:
    the game's rules options (``Game(rules=...)``)."""
    game = Game(game_id, players=players, seed=derived_seed(seed, game_number, "game"), rules=rules)
    names = [bot] * players
    if opponents is not None:
        names = [bot if p == bot_seat(players, game_number) else opponents for p in range(players)]
    bots = [make_bot(name, derived_seed(seed, game_number, f"bot{p}")) for p, name in enumerate(names)]
    timed = [timings is not None and name == bot for name in names]
    while not game.is_over:
        p = game.to_move
        assert p is not None and p >= 0
        if timed[p]:
            start = time.perf_counter()
            move = bots[p].choose(game, p)
            timings.append(time.perf_counter() - start)  # type: ignore[union-attr]
        else:
            move = bots[p].choose(game, p)
        game.play(move, p)
    return game


def win_share(winners: list[int], seat: int) -> float:
    """What a game counts towards a seat's win rate: 1 for a win, 1/k for a k-way tie, else 0."""
    return 1 / len(winners) if seat in winners else 0.0


class GameResult(NamedTuple):
    """What a run keeps of one game: its scores, its winners, the decisions taken, the seconds
    it took."""

    scores: list[Score]
    winners: list[int]
    decisions: int
    seconds: float
    decision_seconds: list[float]  # each decision of the bot under test


Job = tuple[str, int, str, int, int, str | None, dict[str, bool] | None]  # play_game's arguments


def _play_one(args: Job) -> GameResult:
    start = time.perf_counter()
    timings: list[float] = []
    game_id, players, bot, seed, number, opponents, rules = args
    game = play_game(game_id, players, bot, seed, number, opponents, timings=timings, rules=rules)
    decisions = sum(1 for h in game.history if not h.forced)
    return GameResult(game.scores(), game.winners(), decisions, time.perf_counter() - start, timings)


def _play_many(
    run: _Run, games: int, workers: int = 1, progress: Progress | None = None, results: Path | None = None
) -> list[GameResult]:
    """The ``games`` of ``run``, in order; with several workers, on as many processes (one core
    each). ``progress`` is told of each finished game. ``results``: a file that keeps each
    finished game (:class:`ResultsFile`), and whose games are not played again."""
    if games < 1:
        raise ValueError("play at least one game")
    if workers < 1:
        raise ValueError("use at least one worker")
    if run.opponents is not None and run.players < 2:
        raise ValueError("opponents need a game of 2 to 4 players")
    # The workers first: forked before the results file is opened and locked, none of them
    # holds the lock if this process is stopped.
    pool = multiprocessing.Pool(min(workers, games)) if workers > 1 and games > 1 else None
    kept: ResultsFile | None = None
    done: dict[int, GameResult] = {}
    try:
        if results is not None:
            kept = ResultsFile(results, run)
            done = {n: result for n, result in kept.open().items() if n < games}
        if progress is not None and done:
            progress(len(done))
        jobs: list[Job] = [
            (run.game, run.players, run.bot, run.seed, n, run.opponents, run.rules)
            for n in range(games)
            if n not in done
        ]
        # as each game finishes (not in order), so that a stop loses only the games being played
        played: Any = map(_play_numbered, jobs) if pool is None else pool.imap_unordered(_play_numbered, jobs)
        for n, result in played:
            done[n] = result
            if kept is not None:
                kept.add(n, result)
            if progress is not None:
                progress(1)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if kept is not None:
            kept.close()
    return [done[n] for n in range(games)]


def changed_rules(game_id: str, rules: dict[str, bool] | None) -> dict[str, bool] | None:
    """The rules options of a run that differ from the game's defaults (None if none), checked
    (``RulesError``): a run under the defaults is the run it was before the game had options."""
    defaults = game_rules(game_id)
    chosen = game_rules(game_id, rules)
    changed = {name: value for name, value in chosen.items() if value != defaults[name]}
    return changed or None


def _play_numbered(job: Job) -> tuple[int, GameResult]:
    return job[4], _play_one(job)


RESULTS_FORMAT: Final = "tresfute-bench/1"


class ResultsError(ValueError):
    """A results file that this run cannot go on with: ``template`` is the English sentence
    (translated by the front ends through gettext), ``params`` fill it."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


class _Run(BaseModel):
    """A run's games: who plays which game from which seed (a results file's first line)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["tresfute-bench/1"] = RESULTS_FORMAT
    game: str
    players: int
    bot: str
    seed: int
    opponents: str | None
    rules: dict[str, bool] | None = None  # those that differ from the game's defaults


class _SavedGame(BaseModel):
    """One finished game of a results file (``n``: its number in the run)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    n: int = Field(ge=0)
    scores: list[ScoreModel] = Field(min_length=1, max_length=4)
    winners: list[int] = Field(min_length=1, max_length=4)
    decisions: int = Field(ge=0)
    seconds: float = Field(ge=0)
    decision_seconds: list[float]


class ResultsFile:
    """The games of a ``bench`` run kept in a file as they finish, so that a long run can stop
    and go on (``tresfute bench --results FILE``).

    JSON lines: the run first (game, players, bot, seed, opponents), then one line per finished
    game (its number, scores, winners, decisions and times), written and flushed as it finishes.
    Opened again for the same run, the games already there are read back rather than played; a
    last line cut short (the run was stopped while writing it) is dropped, and its game played
    again. A file of another run, or damaged elsewhere, or that another run is writing, is
    refused with the reason and left as it was. The games are those of the install that plays
    them: resume with the same one."""

    def __init__(self, path: Path | None, run: _Run) -> None:
        self.path = path
        self.run = run
        self._file: Any = None

    def open(self) -> dict[int, GameResult]:
        """The games already kept (by number); the file is then ready for more."""
        assert self.path is not None
        path = self.path
        if path.exists() and not path.is_file():  # a folder, a pipe, a device
            raise ResultsError(N_("{path} is not a regular file"), path=str(path))
        try:
            self._file = path.open("a+b")
        except OSError as error:
            raise ResultsError(N_("cannot write {path}: {reason}"), path=str(path), reason=error.strerror) from None
        try:
            return self._read_on(path)
        except BaseException:
            self.close()
            raise

    def _read_on(self, path: Path) -> dict[int, GameResult]:
        if not _locked(self._file):
            raise ResultsError(
                N_("another run is writing {path}: wait for it to end, or name another file"), path=str(path)
            )
        self._file.seek(0)
        data = self._file.read()
        complete = data[: data.rfind(b"\n") + 1]  # a last line without its end was cut short
        if data and not complete and not self._line(self.run.model_dump(mode="json")).startswith(data):
            raise ResultsError(
                N_("{path} is not a results file of tresfute bench (its first line does not name a run)"),
                path=str(path),
            )
        lines = complete.decode("utf-8", errors="replace").splitlines()
        done: dict[int, GameResult] = {}
        if lines:
            try:
                run = _Run.model_validate_json(lines[0])
            except ValidationError:
                raise ResultsError(
                    N_("{path} is not a results file of tresfute bench (its first line does not name a run)"),
                    path=str(path),
                ) from None
            if run != self.run:
                raise ResultsError(
                    N_("{path} holds the games of another run ({theirs}), not of this one ({ours})"),
                    path=str(path),
                    theirs=_describe(run),
                    ours=_describe(self.run),
                )
            for number, line in enumerate(lines[1:], start=2):
                try:
                    game = _SavedGame.model_validate_json(line)
                except ValidationError:
                    game = None
                if game is None or not _fits(game, self.run.players) or not _same(done.get(game.n), game):
                    raise ResultsError(
                        N_("{path} is damaged at line {line}: not a finished game of this run"),
                        path=str(path),
                        line=number,
                    )
                done[game.n] = GameResult(
                    [Score(dict(s.areas), s.foxes, s.fox_value, s.total) for s in game.scores],
                    list(game.winners),
                    game.decisions,
                    game.seconds,
                    list(game.decision_seconds),
                )
        try:
            if len(complete) < len(data):
                self._file.truncate(len(complete))
            if not lines:
                self._write(self.run.model_dump(mode="json"))
        except OSError as error:
            raise ResultsError(N_("cannot write {path}: {reason}"), path=str(path), reason=error.strerror) from None
        return done

    def add(self, n: int, result: GameResult) -> None:
        """Keep one finished game."""
        self._write(
            {
                "n": n,
                "scores": [s.as_dict() for s in result.scores],
                "winners": result.winners,
                "decisions": result.decisions,
                "seconds": result.seconds,
                "decision_seconds": result.decision_seconds,
            }
        )

    @staticmethod
    def _line(data: dict[str, Any]) -> bytes:
        return (json.dumps(data, separators=(",", ":")) + "\n").encode()

    def _write(self, data: dict[str, Any]) -> None:
        try:
            self._file.write(self._line(data))
            self._file.flush()
        except OSError as error:  # a full disk, a file grown past its limit
            raise ResultsError(
                N_("cannot write {path}: {reason}"), path=str(self.path), reason=error.strerror
            ) from None

    def close(self) -> None:
        if self._file is not None:
            file, self._file = self._file, None
            with contextlib.suppress(OSError):  # what could not be written was said when written
                file.close()


def _locked(file: Any) -> bool:
    """Whether this process now holds the file alone (an advisory lock, where the system has
    them: two runs appending to one file would each write the other's games again)."""
    try:
        import fcntl
    except ImportError:  # Windows: no lock
        return True
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        # held by another process; any other failure (a file system without locks): no lock
        return error.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES)
    return True


def _describe(run: _Run) -> str:
    """A run as the options of ``tresfute bench`` that make it."""
    text = f"--game {run.game} --bot {run.bot} --seed {run.seed}"
    if run.players > 1:
        text += f" --players {run.players}"
    if run.opponents:
        text += f" --opponents {run.opponents}"
    return text + rule_options(run.rules or {})


def _same(first: GameResult | None, again: _SavedGame) -> bool:
    """A game number met for the first time, or met again with the same result (two runs that
    wrote one file where it could not be locked played the same games)."""
    return first is None or (
        [s.total for s in first.scores] == [s.total for s in again.scores] and first.winners == again.winners
    )


def _fits(game: _SavedGame, players: int) -> bool:
    """A saved game has a score per seat and its winners among the seats."""
    return len(game.scores) == players and all(0 <= w < players for w in game.winners)


def _figures(
    game_id: str, players: int, bot: str, seed: int, finished: list[GameResult], rules: dict[str, bool] | None = None
) -> dict[str, Any]:
    """What both commands report. Scores are per sheet: a 2-player game adds two scores."""
    scores = [s for g in finished for s in g.scores]
    totals = [s.total for s in scores]
    return {
        "game": game_id,
        "rules": game_rules(game_id, rules),
        "players": players,
        "bot": bot,
        "seed": seed,
        "games": len(finished),
        "mean": statistics.fmean(totals),
        "sd": statistics.pstdev(totals),
        "mean_per_area": {AREA_NAMES[a]: statistics.fmean(s.areas[a] for s in scores) for a in get_spec(game_id).areas},
        "mean_foxes": statistics.fmean(s.foxes for s in scores),
    }


def simulate(
    game_id: str,
    players: int,
    bot: str,
    games: int,
    seed: int,
    progress: Progress | None = None,
    rules: dict[str, bool] | None = None,
) -> dict[str, Any]:
    """The figures of ``tresfute simulate``; ``rules``: the games' rules options."""
    start = time.perf_counter()
    run = _Run(game=game_id, players=players, bot=bot, seed=seed, opponents=None, rules=changed_rules(game_id, rules))
    finished = _play_many(run, games, progress=progress)
    seconds = time.perf_counter() - start
    data = _figures(game_id, players, bot, seed, finished, rules)
    totals = [s.total for g in finished for s in g.scores]
    data.update(min=min(totals), max=max(totals), games_per_second=games / seconds if seconds else 0.0)
    return data


def bench(
    game_id: str,
    players: int,
    bot: str,
    games: int,
    seed: int,
    workers: int = 1,
    opponents: str | None = None,
    progress: Progress | None = None,
    results: Path | None = None,
    rules: dict[str, bool] | None = None,
) -> dict[str, Any]:
    """The strength benchmark: every figure of ``tresfute bench`` (see docs/bench.md).

    With ``opponents``, ``bot`` plays one seat (:func:`bot_seat`) and that bot the others; the
    score figures are then ``bot``'s own, with its win rate (a tie shared: 1/2 for a 2-way tie)
    and the opponents' mean. ``scores`` lists each game's totals by seat. Speeds are per core:
    each game is timed in the process that plays it. ``results``: a file that keeps each
    finished game, from which a stopped run goes on (:class:`ResultsFile`). ``rules``: the
    games' rules options (``Game(rules=...)``), in the figures as ``rules``.
    """
    spec = get_spec(game_id)
    chosen = changed_rules(game_id, rules)
    run = _Run(game=game_id, players=players, bot=bot, seed=seed, opponents=opponents, rules=chosen)
    finished = _play_many(run, games, workers, progress, results)
    seconds = sum(g.seconds for g in finished)
    measured = finished  # the sheets the figures are about: every sheet, or the bot's own
    data: dict[str, Any] = {}
    if opponents is not None:
        seats = [bot_seat(players, n) for n in range(len(finished))]
        measured = [g._replace(scores=[g.scores[seat]]) for g, seat in zip(finished, seats, strict=True)]
        shares = [win_share(g.winners, seat) for g, seat in zip(finished, seats, strict=True)]
        others = [s.total for g, seat in zip(finished, seats, strict=True) for i, s in enumerate(g.scores) if i != seat]
        data.update(
            opponents=opponents,
            win_rate=statistics.fmean(shares),
            opponents_mean=statistics.fmean(others),
            bot_seats=[seat + 1 for seat in seats],
        )
    data = _figures(game_id, players, bot, seed, measured, rules) | data
    data["scores"] = [[s.total for s in g.scores] for g in finished]
    totals = sorted(s.total for g in measured for s in g.scores)
    # Deciles read between the scores played ("inclusive"): never below the lowest nor above
    # the highest, as the default method's are with few games.
    deciles = statistics.quantiles(totals, n=10, method="inclusive") if len(totals) > 1 else [totals[0]] * 9
    bands = {band.label_en: 0 for band in spec.solo_rating}
    for total in totals:
        bands[spec.rating(total).label_en] += 1
    decisions = sum(g.decisions for g in finished)
    data.update(
        se=data["sd"] / len(totals) ** 0.5,
        p10=deciles[0],
        p50=statistics.median(totals),
        p90=deciles[-1],
        rating_bands={label: n / len(totals) for label, n in bands.items()},
        decisions_per_second=decisions / seconds,
        seconds_per_game=seconds / games,
    )
    times = sorted(t for g in finished for t in g.decision_seconds)
    if times:  # the bot under test's own decisions (a decision with one legal move is the engine's)
        data.update(
            median_ms_per_decision=1000 * statistics.median(times),
            p90_ms_per_decision=1000 * times[min(len(times) - 1, int(0.9 * len(times)))],
        )
    return data
