"""The environments' picture (``render_mode="rgb_array"``), its window (``human``) and videos."""

from __future__ import annotations

import importlib.util
import os
import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from PIL import Image, ImageDraw

import tresfute  # noqa: F401  (registers the ids)
from tresfute.envs import GYM_IDS
from tresfute.envs.picture import FONT, Picture, _font, render_rgb
from tresfute.envs.vector import BatchedTresFuteEnv
from tresfute.i18n import LANGUAGES, use_language
from tresfute.i18n import _ as translated
from tresfute.rules import Game

GAMES = sorted(GYM_IDS)


def played(game: str, players: int, seed: int, moves: int) -> Game:
    g, rng = Game(game, players=players, seed=seed), random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.play(rng.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [1, 4])
def test_a_frame_is_an_rgb_picture_of_every_sheet_with_the_same_pixels_for_the_same_state(
    game: str, players: int
) -> None:
    a, b = played(game, players, 3, 10), played(game, players, 3, 10)
    frame = render_rgb(a)
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[1:] == (600, 3)
    assert frame.shape[0] % 2 == 0 and frame.shape[0] > players * 150  # one band per sheet
    assert np.array_equal(frame, render_rgb(b))  # another game object in the same state
    later = played(game, players, 3, 11)
    assert not np.array_equal(frame, render_rgb(later))  # a move changes the picture
    assert render_rgb(a, width=900).shape[1] == 900


def test_the_picture_shows_the_marks_of_each_sheet_where_they_are() -> None:
    """A sheet's marks change its own band only."""
    game = Game("tres-fute", players=2, seed=1)
    before = render_rgb(game)
    picture = Picture("tres-fute", 2)
    game.sheets[1].areas["y"][0] = 1  # a cross in player 2's yellow grid
    after = render_rgb(game)
    changed = np.flatnonzero((before != after).any(axis=(1, 2)))
    first, second = picture._sheet_top(0), picture._sheet_top(1)
    assert changed.size and changed.min() >= second > first


def test_a_bad_width_is_refused() -> None:
    with pytest.raises(ValueError, match="even number of pixels"):
        gym.make("tresfute/TresFute-v0", render_mode="rgb_array", render_width=101)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_checks_the_rgb_array_render(game: str) -> None:
    env = gym.make(GYM_IDS[game], render_mode="rgb_array", opponents=["random"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape[1:] == (600, 3) and frame.dtype == np.uint8


def test_the_batched_environment_draws_each_game() -> None:
    envs = BatchedTresFuteEnv(3, "vraiment-tres-fute", render_mode="rgb_array")
    envs.reset(seed=0)
    frames = envs.render()
    assert len(frames) == 3 and all(f.shape[1:] == (600, 3) for f in frames)
    assert not np.array_equal(frames[0], frames[1])  # different dice
    with pytest.raises(ValueError, match="render_mode"):
        BatchedTresFuteEnv(2, render_mode="human")


@pytest.mark.skipif(importlib.util.find_spec("moviepy") is None, reason="RecordVideo needs moviepy")
def test_record_video_writes_a_video_of_an_episode(tmp_path) -> None:
    env = gym.make("tresfute/TresFute-v0", render_mode="rgb_array")
    env = gym.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True, disable_logger=True)
    _obs, info = env.reset(seed=0)
    done = False
    while not done:
        _obs, _r, done, _t, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


@pytest.mark.skipif(importlib.util.find_spec("pygame") is None, reason="the human mode's window needs pygame")
def test_human_mode_shows_the_picture_in_a_window(monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # no screen needed
    env = gym.make("tresfute/TresFute-v0", render_mode="human")
    monkeypatch.setitem(env.metadata, "render_fps", 1000)  # the class's own dict: put back after the test
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    import pygame

    shown = pygame.surfarray.array3d(pygame.display.get_surface()).swapaxes(0, 1)
    assert np.array_equal(shown, render_rgb(env.unwrapped.game, ["agent"]))
    env.close()
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"


def test_the_picture_and_the_ansi_render_follow_the_language() -> None:
    """Both renders speak the language of ``tresfute.i18n`` (French by default): the printed
    parts are drawn for each language, not once for the first one asked."""
    game = played("vraiment-tres-fute", 2, 5, 30)
    frames = {}
    for lang in [*LANGUAGES, LANGUAGES[0]]:  # the first again: its own picture, not the last one's
        with use_language(lang):
            frame = render_rgb(game, ["Zoé", "Jürgen"])
            assert np.array_equal(frames.setdefault(lang, frame), frame)
    assert len({frame.tobytes() for frame in frames.values()}) == len(LANGUAGES)
    env = gym.make(GYM_IDS["tres-fute"], render_mode="ansi")
    env.reset(seed=1)
    heads = {"fr": "Tour 1/6 · agent\u00a0: choisissez un dé du lancer", "en": "Round 1/6 · agent: choose a die"}
    for lang in LANGUAGES:
        with use_language(lang):
            text = env.render()
            assert text.startswith(translated("Round {round}/{rounds}").format(round=1, rounds=6))
            assert text.startswith(heads.get(lang, "")), text


def test_the_pictures_font_has_every_letter_of_its_words_in_each_language() -> None:
    """DejaVu Sans, not Pillow's default font (no accented letters): every character the picture
    writes in any language, and names with accents, has its own glyph, not the missing-glyph box."""
    font = _font(20)

    def glyph(ch: str) -> bytes:
        image = Image.new("L", (40, 40))
        ImageDraw.Draw(image).text((5, 5), ch, font=font, fill=255)
        return image.tobytes()

    missing = glyph("\ue000")  # a private-use character: no font has it
    words = ["Zoé Jürgen Åsa Łukasz Ærøskøbing ÀÂÇÉÈÊËÎÏÔŒÙÛÜŸ àâçéèêëîïôœùûüÿ ÄÖÜäöüß « » ’ – — … · →"]
    msgids = ["Round {round}/{rounds}", "The game is over.", "Roll", "active player: {name}", "Fields", "Platter"]
    msgids += ["Foxes", "reroll", "reprise", "{label}:"]
    for lang in LANGUAGES:
        with use_language(lang):
            words += [translated(m) for m in msgids]
    absent = sorted({ch for ch in "".join(words) if not ch.isspace() and glyph(ch) == missing})
    assert not absent
    assert FONT.is_file() and (FONT.parent / "LICENSE").is_file() and "DejaVu Sans" in font.getname()
