"""axe-core over every page of the classroom server and the Voila classroom app, for every
registered game (and the toy Nim of tests/fourth_game, which has no classroom module and
gets the generic seat page), at a laptop (1280x800), a phone (390x844) and a projector
(1920x1080): no violation of any impact. A failure lists each violation's rule id, impact
and the CSS targets of its nodes.

One browser for the module: each server and each page is opened once and reused, only the
viewport changes between sizes (the pages lay themselves out again on resize). Each page
is checked at the start of a table; the seat and projector pages also at the end of a table
played by bots to the last decision (``*-end``: the ranking, the bot banner), and that table's
replay with the review's turning points (``replay-end``); ``seat-tutorial``
is P2's page at a tutorial table (``server --tutorial``, every other seat a bot) with its lesson
panel read on to the first question the seat is asked (its form and board), if any. The Voila app
is the one ``haunted-kit classroom`` serves, which plays the default game; ``voila-tutorial`` is the
notebook ``haunted-kit tutorial`` writes for each registered game, served by Voila, its lesson on
the player aid with the list opened under "More".
"""

from __future__ import annotations

import os

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_harness import (NAV_TIMEOUT_MS, PAGE_TIMEOUT_MS, REPO_ROOT, free_port, start_class_server,
                             start_classroom, start_voila, terminate_tree)
from playwright.sync_api import expect

from haunted_kit.games import DEFAULT_GAME, default_players, game_names, get_game
from haunted_kit.cli import TUTORIAL_APP

pytestmark = pytest.mark.browser

FOURTH_GAME = REPO_ROOT / "tests" / "fourth_game"
GENERIC = "nim"  # tests/fourth_game: a game without a classroom module
SIZES = {"laptop": (1280, 800), "phone": (390, 844), "projector": (1920, 1080)}
SERVER_PAGES = ("teacher", "seat", "projector", "hotseat", "seat-end", "projector-end", "replay-end")
CASES = ([(g, p) for g in [*game_names(), GENERIC] for p in (*SERVER_PAGES, "seat-tutorial")] + [(DEFAULT_GAME, "voila")]
         + [(g, "voila-tutorial") for g in game_names()]
         + [(DEFAULT_GAME, "join"), (DEFAULT_GAME, "join-refused")])  # the join page, and it saying a code opened nothing


def violations_text(violations: list[dict]) -> str:
    """One line per violation: rule id, impact, node count and the nodes' CSS targets."""
    return "\n".join(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): "
                     + "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:8])
                     + (" ..." if len(v["nodes"]) > 8 else "")
                     for v in violations)


class Pages:
    """Servers and pages opened on first use and kept for the module."""

    def __init__(self, browser, tmp):
        self.browser, self.tmp = browser, tmp
        self.servers, self.pages, self.procs = {}, {}, []
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.context.set_default_timeout(PAGE_TIMEOUT_MS)
        self.context.set_default_navigation_timeout(NAV_TIMEOUT_MS)

    def server(self, game, ended=False):
        """The game's server: one table at its start, or (``ended``) one whose every seat is a bot,
        or (``ended == "tutorial"``) a tutorial table whose every seat but P2 is a bot."""
        if (game, ended) not in self.servers:
            env = {}
            if game == GENERIC:
                env = {"HAUNTED_KIT_GAMES": "nim=nim.engine:GAME",
                       "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), str(FOURTH_GAME), os.environ.get("PYTHONPATH", "")])}
            saved = {k: os.environ.get(k) for k in env}
            os.environ.update(env)
            name = f"{game}-tutorial" if ended == "tutorial" else f"{game}-end" if ended else game
            players = 2 if game == GENERIC else default_players(get_game(game))  # the toy's own least
            bots = ["--bots", ",".join(str(p + 1) for p in range(players))] if ended is True else []
            if ended == "tutorial":
                bots = ["--bots", ",".join(str(p + 1) for p in range(players) if p != 1), "--tutorial"]
            try:
                srv = start_class_server(["--store", str(self.tmp / f"{name}.db"), "--port", str(free_port()),
                                          "--game", game, "--players", str(players), "--seed", "3",
                                          "--bot-delay", "0", *bots], self.tmp / name)
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            self.procs.append(srv.process)
            self.servers[(game, ended)] = srv
        return self.servers[(game, ended)]

    def page(self, game, kind):
        if (game, kind) in self.pages:
            return self.pages[(game, kind)]
        pg = self.context.new_page()
        if kind == "voila":
            srv = start_classroom(["--seed", "1", "--port", str(free_port())], self.tmp / "voila", 120.0)
            self.procs.append(srv.process)
            pg.goto(srv.url + "/", timeout=120_000)
            expect(pg.locator(".hk-status")).to_be_visible(timeout=120_000)
        elif kind == "voila-tutorial":  # on the player aid, its list opened under "More"
            from haunted_kit.tutorial import write_notebook

            nb = write_notebook(game, self.tmp / f"tutorial-{game}" / f"tutorial-{game}.ipynb")
            srv = start_voila(nb, self.tmp / f"tutorial-{game}-state", [], 120.0, TUTORIAL_APP)
            self.procs.append(srv.process)
            pg.goto(srv.url, timeout=120_000)
            expect(pg.locator(".hk-tutorial .hk-lesson-next")).to_be_enabled(timeout=120_000)
            pg.locator(".hk-tutorial .hk-lesson-next").click()
            expect(pg.locator(".hk-tutorial ul.hk-aid")).to_have_count(1, timeout=30_000)
            pg.locator(".hk-tutorial details.hk-step-more summary").first.click()
            expect(pg.locator(".hk-tutorial details.hk-step-more")).to_have_attribute("open", "")
        elif kind == "seat-tutorial":
            srv = self.server(game, "tutorial")
            pg.goto(srv.seats[(1, 2)])
            expect(pg.locator(".hk-turn")).to_have_count(1)  # the bots before it have played
            expect(pg.locator("#hk-tutor .hk-tutor-title")).to_be_visible()
            for _ in range(20):  # read on to the first question, if the steps met name one
                if pg.evaluate("() => !!tutor.question || tutor.preparing || !tutor.current"):
                    break
                read = pg.evaluate("() => tutor.summary.read")
                pg.locator(".hk-tutor-next").click()
                pg.wait_for_function(f"() => tutor.summary.read > {read}")
            if pg.evaluate("() => tutor.preparing"):  # made in the server's worker pool: it comes next
                pg.wait_for_function("() => !!tutor.question", timeout=60_000)
        elif kind.startswith("join"):
            srv = self.server(game)
            pg.goto(srv.url + ("/join?code=NOSUCH" if kind == "join-refused" else "/"))
            expect(pg.get_by_label("Your seat code")).to_be_visible()
        else:
            ended = kind.endswith("-end")
            srv = self.server(game, ended)
            url = {"teacher": srv.teacher, "seat": srv.seats.get((1, 1)), "projector": srv.projector.get(1),
                   "hotseat": srv.hotseat.get(1),
                   "replay": (srv.projector.get(1) or "").replace("/projector/", "/replay/")}[kind.removesuffix("-end")]
            assert url, f"the server of {game} printed no {kind} link"
            pg.goto(url)
            if kind == "teacher":
                expect(pg.locator(".hk-tables section")).to_have_count(1)
            elif kind == "replay-end":  # the finished table's replay, its turning points worked out
                self.page(game, "projector-end")  # the table played to its end first
                pg.goto(url)
                expect(pg.locator(".hk-points-box[data-ready]")).to_have_count(1, timeout=180_000)
            elif ended:  # the bots play the table to its end
                pg.wait_for_function("() => view && view.ranking", timeout=180_000)
            else:
                expect(pg.locator("#app[data-seq]")).to_have_count(1)
        self.pages[(game, kind)] = pg
        return pg

    def close(self):
        self.context.close()
        for proc in self.procs:
            terminate_tree(proc)


@pytest.fixture(scope="module")
def pages(chromium_browser, tmp_path_factory):
    p = Pages(chromium_browser, tmp_path_factory.mktemp("axe"))
    try:
        yield p
    finally:
        p.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game,kind", CASES)
def test_no_axe_violation(pages, game, kind, size):
    pg = pages.page(game, kind)
    width, height = SIZES[size]
    pg.set_viewport_size({"width": width, "height": height})
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")  # laid out again
    found = Axe().run(pg).response["violations"]
    nodes = sum(len(v["nodes"]) for v in found)
    asked = f", question form shown: {pg.locator('form.hk-question').count()}" if kind == "seat-tutorial" else ""
    print(f"AXE {game} {kind} {size}: {len(found)} violations, {nodes} nodes{asked}")
    if kind == "seat-tutorial":
        pg.screenshot(path=str(pages.tmp / f"axe-{game}-{kind}-{size}.png"), full_page=True)
    assert not found, f"{game} {kind} page at {width}x{height}: {nodes} violating nodes\n{violations_text(found)}"
