"""`termarena serve` in a real browser: Debian's chromium (apt-get install chromium chromium-driver), driven
by selenium.  The page loads, a game is picked and a move is played by keys; the served app's autosave
shows the move.  Skipped, saying why, where no chromium and chromedriver are installed."""
from __future__ import annotations

import shutil
import time

import pytest

from tests.helpers.serving import served

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="no chromium and chromedriver on this machine (Debian: apt-get install chromium chromium-driver)")]


def test_the_served_app_loads_in_a_browser_and_plays_a_move_typed_there(tmp_path):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    with served(tmp_path) as (_, port):
        options = Options()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1200,900"):
            options.add_argument(arg)
        browser = webdriver.Chrome(service=Service(DRIVER), options=options)
        try:
            browser.get(f"http://127.0.0.1:{port}")
            # the page marks its body once the app's first screen arrived
            WebDriverWait(browser, 60).until(
                lambda b: "-first-byte" in (b.find_element(By.TAG_NAME, "body").get_attribute("class") or ""))
            keys = browser.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
            for typed in ("3", Keys.CONTROL + "s", "4"):  # Connect 4 in the picker, start it, drop in column 4
                keys.send_keys(typed)
                time.sleep(1.0)  # a person's pace: the next screen is up before the next key
            autosave = tmp_path / "autosave.txt"
            WebDriverWait(browser, 60).until(lambda b: autosave.exists() and "\n1 3\n" in autosave.read_text())
            assert "game = connect4" in autosave.read_text()
        finally:
            browser.quit()
