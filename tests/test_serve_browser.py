"""rulecore/serve/static: the web table in a real headless Chromium (Debian's chromium, driven by Playwright's
Python API), as people use it: a match against a bot made in the lobby and played to the end by clicking,
two browsers playing one match as two seats, a spectator, a reload, and a cardset full of markup."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from serve_helpers import Server, httpx

CHROMIUM = "/usr/bin/chromium"
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (pip install playwright)")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)

pytestmark = pytest.mark.slow

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REPO = Path(__file__).resolve().parent.parent
STEP = 30_000  # ms a click may take to come back as a new version of the table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("browser") / "matches.sqlite3"
    running = Server(db, "witty-witches", "tests/serve/xss-game.yaml", "--allow-path", "docs/examples",
                     "--bot-workers", "1", "--bot-pause", "0", "--rate", "400", "--burst", "800").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        yield p


class Browser:
    """One person's browser: a fresh profile (its own --user-data-dir), a page, and what went wrong in it."""

    def __init__(self, playwright: Any, width: int = 1280, height: int = 900):
        self.profile = tempfile.mkdtemp(prefix="rulecore-chromium-")
        self.context = playwright.chromium.launch_persistent_context(
            self.profile, executable_path=CHROMIUM, args=ARGS, headless=True, viewport={"width": width, "height": height})
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def version(self) -> int:
        return int(self.page.get_attribute("#app", "data-version") or -1)

    def status(self) -> str:
        return self.page.get_attribute("#app", "data-status") or ""

    def wait_version_above(self, version: int) -> None:
        self.page.wait_for_function(
            f"() => Number(document.getElementById('app').dataset.version || -1) > {version}", timeout=STEP)

    def take_turn(self) -> bool:
        """If this seat decides: click a card an option is about (or, when no card is, an option button) and
        wait for the new table. False when it is not this seat's turn."""
        page = self.page
        if page.query_selector("#decision") is None:
            return False
        version = self.version()
        cards, options = page.query_selector_all(".card.choosable"), page.query_selector_all(".option")
        try:
            if cards and len(cards) == len(options):
                cards[0].click()  # one option per card: a click on the card answers
            else:
                options[0].click()
        except sync_api.Error as exc:
            if "not attached" not in str(exc):
                raise
            return False  # a push drew the table anew between looking and clicking: look again
        self.wait_version_above(version)
        return True

    def close(self) -> None:
        self.context.close()
        shutil.rmtree(self.profile, ignore_errors=True)  # a profile is tens of files: none left in /tmp


def _sit(browser: Browser, name: str) -> None:
    page = browser.page
    page.fill("#name", name)
    page.click("#join")
    page.wait_for_function("() => (document.getElementById('app').dataset.seat || '') !== ''", timeout=STEP)


def test_a_person_plays_witty_witches_against_a_bot_to_the_end(server: Server, playwright: Any,
                                                               tmp_path: Path) -> None:
    """Lobby -> new Witty Witches match against a bot -> take the seat -> click until the game is over; a reload
    in the middle keeps the seat."""
    me = Browser(playwright)
    try:
        page = me.page
        page.goto(server.url + "/")
        page.click("a[href='#/new/witty-witches']")
        page.select_option("#players", "2")
        page.select_option("#seat-1", "bot:greedy")
        page.click("#create")
        page.wait_for_selector("text=Waiting for players")
        page.click("text=Sit here")
        _sit(me, "Ann")
        assert page.text_content("section.player.me h2").startswith("Ann (you)")
        turns = 0
        while me.status() == "playing" and turns < 400:
            if me.take_turn():
                turns += 1
                if turns == 3:
                    page.reload()
                    page.wait_for_selector("#status")
                    assert page.text_content("section.player.me h2").startswith("Ann (you)")
            else:
                page.wait_for_timeout(50)
        page.screenshot(path=str(tmp_path / "finished.png"), full_page=True)
        assert me.status() == "finished", f"not over after {turns} turns"
        assert "The game is over" in page.text_content("#status")
        assert turns >= 3 and not me.errors and not me.dialogs
    finally:
        me.close()


def test_two_browsers_play_one_match_as_two_seats_while_a_third_watches(server: Server, playwright: Any) -> None:
    """Both seats open in the lobby; the second person joins by the shared link; each plays by clicking on
    their own screen; a spectator sees no hand."""
    ann, bob = Browser(playwright), Browser(playwright, 390, 844)  # Bob is on a phone
    try:
        ann.page.goto(server.url + "/#/new/witty-witches")
        ann.page.select_option("#players", "2")
        ann.page.select_option("#option-mode", '"apprentice"')
        ann.page.select_option("#seat-1", "open")
        ann.page.click("#create")
        ann.page.wait_for_selector("text=Waiting for players")
        link = ann.page.query_selector_all("input.sharelink")[1].input_value()
        ann.page.query_selector_all("text=Sit here")[0].click()
        _sit(ann, "Ann")
        bob.page.goto(link)
        _sit(bob, "Bob")
        ann.page.wait_for_selector("#status", timeout=STEP)
        watcher = Browser(playwright)
        watcher.page.goto(ann.page.url.split("#")[0] + "#/m/" + ann.page.url.split("/m/")[1].split("/")[0] + "/watch")
        watcher.page.wait_for_selector("#status")
        assert "You are watching" in watcher.page.text_content("main")
        hands = watcher.page.query_selector_all("section.zone[data-zone^='hand/'] .card")
        assert hands == []
        watcher.close()
        moves = {"Ann": 0, "Bob": 0}
        for _ in range(600):
            if ann.status() == "finished" and bob.status() == "finished":
                break
            for name, person in (("Ann", ann), ("Bob", bob)):
                if person.take_turn():
                    moves[name] += 1
            ann.page.wait_for_timeout(20)
        bob.page.wait_for_function("() => document.getElementById('app').dataset.status === 'finished'",
                                   timeout=STEP)
        assert moves["Ann"] > 3 and moves["Bob"] > 3
        assert "The game is over" in ann.page.text_content("#status") == bob.page.text_content("#status")
        assert not ann.errors and not bob.errors
    finally:
        ann.close()
        bob.close()


def test_cardset_and_player_text_is_shown_as_text_never_markup(server: Server, playwright: Any) -> None:
    """A card named '<img src=x onerror=alert(1)>', a zone label and a title with tags, a player named
    '<b>Eve</b>': all shown as those characters; no element is made of them and no script runs."""
    with httpx.Client(base_url=server.url) as client:
        made = client.post("/api/matches", json={"game": "xss-game", "players": 2, "seats": ["open", "bot:random"],
                                                 "options": {"target": 3}, "seed": 2}).json()
    eve = Browser(playwright)
    try:
        page = eve.page
        page.goto(server.url + "/")
        page.wait_for_selector("text=<b>Bold</b> High Card")
        page.goto(f"{server.url}/#/m/{made['match_id']}/join/0")
        _sit(eve, "<b>Eve</b>")
        for _ in range(200):
            if eve.status() != "playing":
                break
            if not eve.take_turn():
                page.wait_for_timeout(50)
        text = page.text_content("body")
        assert "<b>Eve</b> (you)" in text
        assert "<i onmouseover=alert(3)>hand</i>" in text
        assert "<img src=x onerror=alert(1)>" in text  # in the event log at least: every card is played
        assert page.query_selector("main img, main b, main i, main script") is None
        assert page.evaluate("() => window.pwned") is None
        assert eve.dialogs == [] and eve.errors == []
    finally:
        eve.close()


def test_the_table_reads_on_a_phone(server: Server, playwright: Any, tmp_path: Path) -> None:
    """At 390 px wide the table needs no sideways scrolling and the options are big enough to tap."""
    with httpx.Client(base_url=server.url) as client:
        made = client.post("/api/matches", json={"game": "witty-witches", "players": 3, "seed": 8,
                                                 "seats": ["open", "bot:random", "bot:random"]}).json()
    phone = Browser(playwright, 390, 844)
    try:
        phone.page.goto(f"{server.url}/#/m/{made['match_id']}/join/0")
        _sit(phone, "Ann")
        phone.page.wait_for_selector("#decision", timeout=STEP)
        width = phone.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390
        box = phone.page.query_selector(".option").bounding_box()
        assert box is not None and box["height"] >= 36
        phone.page.screenshot(path=str(tmp_path / "phone.png"))
    finally:
        phone.close()
