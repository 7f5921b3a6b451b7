"""`termarena serve` in a real browser: Debian's chromium (apt-get install chromium chromium-driver), driven
by selenium.  The page loads, a game is picked and a move is played by keys; the served app's autosave
shows the move.  Skipped, saying why, where no chromium and chromedriver are installed."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="no chromium and chromedriver on this machine (Debian: apt-get install chromium chromium-driver)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, "termarena serve ended at start"
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("termarena serve did not listen")


def test_the_served_app_loads_in_a_browser_and_plays_a_move_typed_there(tmp_path):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    port = free_port()
    env = dict(os.environ, TERMARENA_SAVES=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "tui", "serve", "--port", str(port)], env=env, cwd=tmp_path,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc)
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
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
