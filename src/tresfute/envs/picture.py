"""The ``rgb_array`` render mode: a picture of the dice and of every sheet (Pillow).

Drawn from the game's sheet description (``GameSpec``: the grids, tracks and action tracks
that ``rules/layout.py`` builds from the printed sheets, and that the browser's page draws
too): what is printed is drawn once per game, width and number of players, and each frame
copies it and adds the marks, the dice and the scores. The same state gives the same pixels.
Its words are in the language of ``tresfute.i18n`` (French by default), in DejaVu Sans (shipped
in ``fonts/``, with its licence): Pillow's own font has no accented letters.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..i18n import _, language
from ..rules import Game, Where
from ..rules.game import get_spec
from ..rules.kinds import ActionKind, GameSpec, Grid, Track

# The browser page's colours (web/static), one per die and area.
COLOURS = {
    "w": (238, 238, 238),
    "s": (180, 188, 200),
    "y": (247, 213, 29),
    "b": (31, 95, 209),
    "g": (60, 180, 75),
    "o": (245, 130, 49),
    "p": (123, 44, 191),
    "k": (255, 111, 181),
}
PAPER = (251, 250, 246)
INK = (27, 27, 27)
LINE = (153, 153, 153)
BACKGROUND = (233, 230, 222)
MARK = (176, 0, 32)  # crosses and written numbers: the player's pen
ACTIVE = (10, 88, 202)

# Layout in cells: a sheet is a band of grids side by side, then one row per track, then
# the action tracks; the dice band is on top.
_HEADER = 0.9
_GAP = 0.4
# DejaVu Sans's Latin letters (French, English, German), with its licence beside it
FONT = Path(__file__).parent / "fonts" / "DejaVuSans.ttf"


def _action_label(action: str) -> str:
    return "+1" if action == "plus_one" else _(action)  # "reroll", "reprise": the sheet's words


def _labelled(label: str) -> str:
    """``Platter:`` in English, ``Plateau :`` in French (a no-break space before the colon)."""
    return _("{label}:").format(label=label)


def _middle(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _light(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """The printed tint of an area's colour (the cells are pale, the pen stands out)."""
    r, g, b = colour
    return ((r + 2 * 255) // 3, (g + 2 * 255) // 3, (b + 2 * 255) // 3)


@lru_cache(maxsize=4096)
def _stamp(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` drawn once as a mask, and where its corner lies from the anchor point: a frame
    pastes it in its colour (a FreeType drawing per frame cost most of a frame)."""
    font = _font(size)
    left, top, right, bottom = (round(v) for v in font.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor=anchor)
    return mask, left, top


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


def _columns(spec: GameSpec) -> int:
    """The sheet's width in cells: its grids side by side, or its longest track."""
    grids = sum(a.cols for a in spec.areas.values() if isinstance(a, Grid)) + 1
    tracks = max(len(a.boxes) for a in spec.areas.values() if isinstance(a, Track)) + 1
    actions = max(t.circles for t in spec.actions) * 2 + 1
    return max(grids + 1, tracks, actions)


class Picture:
    """Draws games of one kind, for a number of players, ``width`` pixels wide."""

    def __init__(self, game: str, players: int, width: int = 600) -> None:
        if width < 200 or width % 2:
            raise ValueError(f"the picture's width is an even number of pixels, at least 200, not {width}")
        self.spec = get_spec(game)
        self.players = players
        self.width = width
        self.cell = cell = width / (_columns(self.spec) + 1)
        self.margin = cell / 2
        spec = self.spec
        grid_rows = max(a.rows for a in spec.areas.values() if isinstance(a, Grid))
        tracks = sum(1 for a in spec.areas.values() if isinstance(a, Track))
        self.sheet_height = cell * (_HEADER + grid_rows + _GAP + tracks + _GAP + len(spec.actions) + _GAP)
        self.dice_height = cell * 2.6
        height = round(self.dice_height + players * self.sheet_height + self.margin)
        self.height = height + height % 2  # even: video encoders (H.264) want even sides
        self.small_size = max(8, round(cell * 0.45))
        self.large_size = max(9, round(cell * 0.6))
        self.small = _font(self.small_size)
        self.large = _font(self.large_size)
        self._image = Image.new("RGB", (1, 1))  # the frame being drawn
        self._boxes: list[tuple[str, int, tuple[float, float, float, float]]] = []  # (area, index, box)
        self._circles: list[tuple[ActionKind, int, tuple[float, float, float, float]]] = []  # (action, index, box)
        self.printed = self._draw_printed()

    # --- what is printed: drawn once -------------------------------------------------

    def _sheet_top(self, seat: int) -> float:
        return self.dice_height + seat * self.sheet_height

    def _draw_printed(self) -> Image.Image:
        image = Image.new("RGB", (self.width, self.height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        cell, spec = self.cell, self.spec
        for seat in range(self.players):
            top = self._sheet_top(seat)
            draw.rectangle(
                (self.margin / 2, top, self.width - self.margin / 2, top + self.sheet_height - cell * 0.2), fill=PAPER
            )
            y = top + cell * _HEADER
            x = self.margin
            for letter, area in spec.areas.items():
                if not isinstance(area, Grid):
                    continue
                colour = COLOURS[area.colour]
                for i, c in enumerate(area.cells):
                    box = (x + (c.col - 1) * cell, y + (c.row - 1) * cell, x + c.col * cell, y + c.row * cell)
                    row_colour = area.row_colours[c.row - 1] if area.row_colours else area.colour
                    draw.rectangle(box, fill=_light(COLOURS[row_colour]), outline=LINE)
                    self._centre(draw, box, str(c.value), INK, self.small)
                    if seat == 0:
                        self._boxes.append((letter, i, box))
                draw.rectangle((x, y, x + area.cols * cell, y + area.rows * cell), outline=colour, width=2)
                x += (area.cols + 1) * cell
            grid_rows = max(a.rows for a in spec.areas.values() if isinstance(a, Grid))
            y += (grid_rows + _GAP) * cell
            for letter, area in spec.areas.items():
                if not isinstance(area, Track):
                    continue
                colour = COLOURS[area.colour]
                draw.rectangle((self.margin, y, self.margin + cell, y + cell), fill=colour, outline=LINE)
                for i, box_spec in enumerate(area.boxes):
                    box = (self.margin + (i + 1) * cell, y, self.margin + (i + 2) * cell, y + cell)
                    draw.rectangle(box, fill=_light(colour), outline=LINE)
                    if box_spec.minimum > 1 or box_spec.multiplier > 1:
                        label = f"x{box_spec.multiplier}" if box_spec.multiplier > 1 else f"{box_spec.minimum}+"
                        draw.text((box[0] + 2, box[1] + 1), label, fill=LINE, font=_font(max(7, round(cell * 0.3))))
                    if seat == 0:
                        self._boxes.append((letter, i, box))
                y += cell
            y += _GAP * cell
            for track in spec.actions:
                label, font = _action_label(str(track.action)), self.small
                while font.getlength(label) > cell * 1.9 and font.size > 6:  # a long word: smaller
                    font = _font(font.size - 1)
                draw.text((self.margin, y + cell * 0.2), label, fill=INK, font=font)
                for i in range(track.circles):
                    box = (
                        self.margin + (i + 2) * cell,
                        y + cell * 0.1,
                        self.margin + (i + 3) * cell - cell * 0.2,
                        y + cell * 0.9,
                    )
                    draw.ellipse(box, outline=LINE, width=1)
                    if seat == 0:
                        self._circles.append((track.action, i, box))
                y += cell
        return image

    def _centre(
        self,
        draw: ImageDraw.ImageDraw,
        box: tuple[float, float, float, float],
        text: str,
        fill: tuple[int, int, int],
        font: ImageFont.FreeTypeFont,
    ) -> None:
        draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, fill=fill, font=font, anchor="mm")

    # --- the state: drawn at each frame ----------------------------------------------

    def _text(
        self, at: tuple[float, float], text: str, fill: tuple[int, int, int], size: int, anchor: str = "la"
    ) -> None:
        mask, left, top = _stamp(text, size, anchor)
        self._image.paste(fill, (round(at[0]) + left, round(at[1]) + top), mask)

    def draw(self, game: Game, names: list[str] | None = None) -> np.ndarray:
        """The picture of ``game`` now: H × W × 3, uint8."""
        if game.spec.id != self.spec.id or game.n_players != self.players:
            raise ValueError(f"this picture draws {self.players}-player games of {self.spec.id}")
        image = self.printed.copy()
        draw = ImageDraw.Draw(image)
        self._image = image
        names = names or [f"player_{i}" for i in range(self.players)]
        self._draw_dice(draw, game, names)
        movers = game.players_to_move
        for seat in range(self.players):
            self._draw_sheet(draw, game, seat, names[seat], seat in movers)
        return np.asarray(image)

    def _draw_dice(self, draw: ImageDraw.ImageDraw, game: Game, names: list[str]) -> None:
        cell = self.cell
        parts = [_("Round {round}/{rounds}").format(round=game.round, rounds=game.rounds)]
        if game.is_over:
            parts.append(_("The game is over."))
        else:
            parts += [f"{_('Roll')} {game.rolls}/3", _("active player: {name}").format(name=names[game.active])]
        self._text((self.margin, cell * 0.15), " · ".join(parts), INK, self.small_size)
        field = {d: k for k, d in enumerate(game.field)}
        for i, letter in enumerate(game.dice):
            x = self.margin + i * cell * 1.5
            where = game.where[i]
            y = cell * 0.8 if where is not Where.PLATTER else cell * 1.4
            box = (x, y, x + cell * 1.1, y + cell * 1.1)
            value = game.values[i]
            fill = COLOURS[letter] if value else _light(COLOURS[letter])
            outline = ACTIVE if where is Where.FIELD else INK
            draw.rounded_rectangle(box, radius=cell * 0.2, fill=fill, outline=outline, width=3 if i in field else 1)
            if value:
                ink = INK if letter in "wsyk" else PAPER
                self._text(_middle(box), str(value), ink, self.large_size, "mm")
        labels = ((Where.FIELD, _("Fields")), (Where.PLATTER, _("Platter")))
        x = self.margin + 6 * cell * 1.5 + cell * 0.2
        for k, (where, label) in enumerate(labels):
            count = sum(1 for w in game.where if w is where)
            self._text((x, cell * (0.9 + 0.7 * k)), f"{_labelled(label)} {count}", INK, self.small_size)

    def _draw_sheet(self, draw: ImageDraw.ImageDraw, game: Game, seat: int, name: str, to_move: bool) -> None:
        cell, spec = self.cell, self.spec
        shift = self._sheet_top(seat) - self._sheet_top(0)
        sheet = game.sheets[seat]
        top = self._sheet_top(seat)
        score = game.score(seat)
        colour = ACTIVE if to_move else INK
        head = f"{_labelled(name)} {score.total}"
        if sheet.foxes:
            head += f" · {_labelled(_('Foxes'))} {len(sheet.foxes)}"
        self._text((self.margin, top + cell * 0.1), head, colour, self.large_size)
        for letter, i, (x0, y0, x1, y1) in self._boxes:
            area = spec.areas[letter]
            state = sheet.areas[letter]
            box = (x0, y0 + shift, x1, y1 + shift)
            if isinstance(area, Grid):
                level = state[i]
                if level:
                    pad = cell * 0.15
                    draw.line((box[0] + pad, box[3] - pad, box[2] - pad, box[1] + pad), fill=MARK, width=2)
                    if level >= area.marks:
                        draw.line((box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), fill=MARK, width=2)
            elif i < len(state):
                if area.crosses:
                    pad = cell * 0.2
                    draw.line((box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), fill=MARK, width=2)
                    draw.line((box[0] + pad, box[3] - pad, box[2] - pad, box[1] + pad), fill=MARK, width=2)
                else:
                    self._text(_middle(box), str(state[i]), MARK, self.large_size, "mm")
        for kind, i, (x0, y0, x1, y1) in self._circles:
            box = (x0, y0 + shift, x1, y1 + shift)
            if i < sheet.earned[kind]:
                draw.ellipse(box, fill=_light(MARK), outline=MARK, width=2)
                if i < sheet.used[kind]:
                    draw.line((box[0], box[3], box[2], box[1]), fill=MARK, width=2)


def picture(game: str, players: int, width: int = 600) -> Picture:
    """The drawing of ``players``-player games of ``game`` in the current language, printed
    parts drawn once."""
    return _picture(game, players, width, language())


@cache
def _picture(game: str, players: int, width: int, lang: str) -> Picture:
    return Picture(game, players, width)


def render_rgb(game: Game, names: list[str] | None = None, width: int = 600) -> np.ndarray:
    """A picture of ``game``: the dice, then every sheet (H × W × 3, uint8)."""
    return picture(game.spec.id, game.n_players, width).draw(game, names)


class Window:
    """The ``human`` render mode: the picture in a window of its own (pygame, imported only
    here: the ``video`` extra)."""

    def __init__(self, title: str) -> None:
        try:
            import pygame
        except ImportError as error:  # say which extra to install, as the CLI does
            raise ImportError(
                'render_mode "human" shows the picture in a window with pygame (the video extra): '
                'pip install "tresfute[video]"',
                name=error.name,
            ) from error
        self.pygame = pygame
        self.title = title
        self.screen: Any = None

    def show(self, frame: np.ndarray, fps: int) -> None:
        pygame = self.pygame
        if self.screen is None:
            pygame.init()
            pygame.display.set_caption(self.title)
            self.screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            self.clock = pygame.time.Clock()
        pygame.event.pump()
        surface = pygame.surfarray.make_surface(frame.swapaxes(0, 1))
        self.screen.blit(surface, (0, 0))
        pygame.display.flip()
        self.clock.tick(fps)

    def close(self) -> None:
        if self.screen is not None:
            self.pygame.display.quit()
            self.screen = None
