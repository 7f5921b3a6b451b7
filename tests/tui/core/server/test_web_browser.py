"""`termarena server --web-port` in a real browser: Debian's chromium (apt-get install chromium
chromium-driver), driven by selenium.  The page opens the lobby as a guest; a seek typed there reaches a
player over TLS, who accepts, and a move typed in the browser is played on the server.  Skipped, saying
why, where no chromium and chromedriver are installed."""
from __future__ import annotations

import asyncio
import shutil

import pytest

from tests.helpers.server import WAIT_S, give_certificate, login, server_process

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="no chromium and chromedriver on this machine (Debian: apt-get install chromium chromium-driver)")]


def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


async def test_a_browser_tab_is_a_guest_in_the_lobby_that_seeks_and_plays(tmp_path):
    pytest.importorskip("textual_serve", reason="textual-serve is not installed (pip install -e '.[web]')")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    give_certificate(tmp_path)
    async with server_process(tmp_path, "--web-port", "0") as (_, ports):
        page = browser()
        try:
            page.get(f"http://127.0.0.1:{ports['web']}")
            # the page marks its body once the app's first screen arrived
            await asyncio.to_thread(WebDriverWait(page, 60).until, lambda b: "-first-byte" in (
                b.find_element(By.TAG_NAME, "body").get_attribute("class") or ""))
            keys = page.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
            bob = await login(ports["tls"], "bob")
            for _ in range(int(WAIT_S)):  # the tab's app logs in as a guest of its own
                guests = [m.words[0] for m in await bob.listed("players") if m.words[0].startswith("guest-")]
                if guests:
                    break
                await asyncio.sleep(1)
            [guest] = guests
            keys.send_keys("seek c4 5+3\n")  # a guest's seek is casual without saying so
            offer = await bob.expect("OFFER")
            assert offer.words[1] == guest and offer.words[4] == "casual"
            bob.send("ACCEPT", offer.words[0])
            welcome = await bob.expect("WELCOME")
            played = 0
            if welcome.words[2] == "1":  # bob moves first
                bob.send("MOVE", 1, text="3")
                await bob.expect("MOVE")
                played = 1
            for _ in range(int(WAIT_S)):  # a key the app was not reading yet is dropped: typed again
                keys.send_keys("5")
                try:
                    moved = await asyncio.wait_for(bob.expect("MOVE"), 1.0)
                    break
                except asyncio.TimeoutError:
                    pass
            assert int(moved.words[0]) == played + 1 and moved.text == "4"  # column 5, from the left
        finally:
            page.quit()
