"""rulecore/simulate/compare_report.py: `rulecore compare --report FILE.html` writes one self-contained page (the
figures table, matplotlib plots inline as SVG, nothing fetched), checked as text and in a headless Chromium."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from typer.testing import CliRunner

from rulecore.cli import app

pytest.importorskip("numpy", reason="rulecore compare needs numpy (rulecore[compare])")
pytest.importorskip("matplotlib", reason="the report needs matplotlib (rulecore[report])")

from rulecore.simulate import compare  # noqa: E402
from rulecore.simulate.paired.report import render_report  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "docs" / "examples"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of a short Witching Hour comparison (cards, scores, a heuristic: every plot has data)."""
    path = tmp_path_factory.mktemp("report") / "compare.html"
    result = CliRunner().invoke(app, ["compare", "witching-hour", str(EXAMPLES / "witching-hour-broom.yaml"),
                                      "-n", "6", "-p", "3", "-w", "1", "--report", str(path)])
    assert result.exit_code == 0, result.output
    assert f"report: {path}" in result.stdout.replace("\n", "")
    return path


def test_the_page_holds_the_table_and_four_inline_plots(page: Path) -> None:
    """The page has the figures table and four inline SVG plots, and no script, stylesheet link or remote URL."""
    text = page.read_text(encoding="utf-8")
    assert '<table id="figures">' in text and "card_lift:broom" in text
    assert text.count("<svg") == 4
    assert "<script" not in text and "<link" not in text and "<img" not in text
    fetched = re.findall(r"""(?:src|href)=["'](?!#)([^"']+)""", text)
    assert fetched == [], fetched


def test_the_same_comparison_gives_the_same_page() -> None:
    """The page depends only on the comparison (no dates, no random ids)."""
    c = compare("witty-witches", str(EXAMPLES / "witty-witches-table-talk.yaml"), games=4, players=2, workers=1)
    assert render_report(c) == render_report(c)


@pytest.mark.slow
def test_the_page_renders_in_chromium_without_network(page: Path) -> None:
    """Headless Chromium shows the table and the plots, and the page asks for nothing but itself."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip install playwright)")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"needs Debian's chromium at {CHROMIUM}")
    requests: list[str] = []
    with sync_api.sync_playwright() as p:
        profile = tempfile.mkdtemp(prefix="rulecore-chromium-")
        context: Any = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=ARGS,
                                                           headless=True)
        try:
            tab = context.pages[0] if context.pages else context.new_page()
            tab.on("request", lambda r: requests.append(r.url))
            errors: list[str] = []
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.goto(page.as_uri())
            tab.wait_for_load_state("load")
            rows = tab.locator("#figures tr").count()
            assert rows > 10
            assert tab.locator("#figures").is_visible()
            svgs = tab.locator("figure svg")
            assert svgs.count() == 4
            for i in range(4):
                box = svgs.nth(i).bounding_box()
                assert box is not None and box["width"] > 100 and box["height"] > 100
            assert errors == []
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)
    assert requests == [page.as_uri()], requests


@pytest.fixture(autouse=True, scope="module")
def _no_display() -> Iterator[None]:
    """matplotlib draws without a display."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    yield
