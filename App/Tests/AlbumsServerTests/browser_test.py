#!/usr/bin/env python3
"""The albums page in headless Chromium, driven by Selenium (4.8 from Debian or a newer pip one).

Usage: browser_test.py URL ALBUMS_BINARY LIBRARY SCREENSHOT_DIR SERVER_PID

Run by BrowserTests.swift against a real `albums serve` on 127.0.0.1. Prints one "ok: ..." line
per scenario and exits 1 with "FAIL: ..." on the first that does not hold. The driver is the
system's chromedriver (never downloaded) and SE_AVOID_STATS keeps Selenium from reporting usage:
nothing leaves the loopback address.
"""
import os
import signal
import struct
import subprocess
import sys
import zlib

os.environ.setdefault("SE_AVOID_STATS", "true")

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

URL, ALBUMS, LIBRARY, SHOTS, SERVER_PID = sys.argv[1:6]
# A bound on waits for what should happen at once: only turns a hang into a failure.
PATIENCE = 60


def fail(message):
    print("FAIL: " + message, flush=True)
    sys.exit(1)


def ok(message):
    print("ok: " + message, flush=True)


def make_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
        "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-extensions", "--metrics-recording-only",
        "--no-proxy-server", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def wait(driver, what, condition):
    try:
        return WebDriverWait(driver, PATIENCE, poll_frequency=0.02).until(lambda d: condition())
    except TimeoutException:
        status = driver.find_element(By.ID, "status").text
        shot(driver, "failure")
        fail(what + " never held (status line: %r)" % status)


def covers(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#covers li.cover")


def cover_titles(driver):
    # Read in one script: the list is rebuilt on every change, so elements found earlier go stale.
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#covers .c-title')).map(e => e.textContent)")


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def button(driver, element_id):
    return driver.find_element(By.ID, element_id)


def shot(driver, name):
    path = os.path.join(SHOTS, name + ".png")
    driver.save_screenshot(path)
    return path


def cli(*arguments):
    subprocess.run([ALBUMS, "--db", LIBRARY] + list(arguments), check=True, capture_output=True,
                   env=dict(os.environ, ALBUMS_AUTHOR="cli-user"))


def solid_png(width, height, color):
    """A real PNG of one colour, made here (no image library needed)."""
    rows = b"".join(b"\x00" + bytes(color) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def png_pixels(path):
    """Decodes an 8-bit RGB or RGBA PNG (what Chromium writes) with the standard library only."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    offset, idat, width, height, channels = 8, b"", 0, 0, 0
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunk = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            if depth != 8 or colour not in (2, 6):
                fail("unexpected PNG format in " + path)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        offset += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, position = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(line)
        previous = line
    return width, height, channels, rows


def pixel(image, x, y):
    width, height, channels, rows = image
    row = rows[y]
    return tuple(row[x * channels:x * channels + 3])


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = make_driver()
    try:
        run(driver)
    finally:
        driver.quit()
    # Two people: two browser sessions, each with its own localStorage (its own name).
    first, second = make_driver(), None
    try:
        second = make_driver()
        two_authors(first, second)
    finally:
        first.quit()
        if second:
            second.quit()


def name_as(driver, name):
    # Typed over the old name (clear() would first commit an empty one).
    field = driver.find_element(By.ID, "author")
    field.click()
    driver.execute_script("arguments[0].select()", field)
    field.send_keys(name + Keys.TAB)
    driver.execute_script("document.getElementById('covers').focus()")


def choose(driver, title):
    # The cover with this title, clicked: its album becomes the current one.
    driver.execute_script(
        "for (const li of document.querySelectorAll('#covers li.cover'))"
        "  if (li.querySelector('.c-title').textContent === arguments[0]) { li.click(); return; }", title)
    wait(driver, "“%s” chosen" % title, lambda: text(driver, "d-title") == title)


def two_authors(ada, grace):
    # 11. Two authors, undo mine (the default): ada deletes, grace adds, ada's Undo takes back
    # her own delete and leaves grace's add; each page follows the other live.
    for driver, name in [(ada, "ada"), (grace, "grace")]:
        driver.get(URL)
        wait(driver, "the page (%s)" % name, lambda: len(covers(driver)) > 1 and text(driver, "live") == "live")
        if Select(driver.find_element(By.ID, "undo-scope")).first_selected_option.get_attribute("value") != "mine":
            fail("a new page's Undo is not per-author")
        name_as(driver, name)
        wait(driver, "the name kept (%s)" % name,
             lambda: driver.execute_script("return localStorage.getItem('albums.author')") == name)
        wait(driver, "nothing of %s's to undo" % name,
             lambda: not button(driver, "undo").is_enabled() and button(driver, "undo").text == "Undo yours")
    if "has no change to undo" not in button(ada, "undo").get_attribute("title"):
        fail("the disabled Undo's tooltip reads %r" % button(ada, "undo").get_attribute("title"))
    titles = cover_titles(ada)
    victim = titles[0]
    choose(ada, victim)
    button(ada, "delete").click()
    wait(ada, "ada's delete", lambda: victim not in cover_titles(ada))
    wait(grace, "grace's page follows ada's delete", lambda: victim not in cover_titles(grace))
    ActionChains(grace).send_keys("a").perform()
    wait(grace, "grace's add form", lambda: grace.find_element(By.ID, "form-dialog").get_attribute("open") is not None)
    ActionChains(grace).send_keys("Blue Train").send_keys(Keys.TAB).send_keys("John Coltrane").send_keys(Keys.ENTER).perform()
    wait(grace, "grace's add", lambda: "Blue Train" in cover_titles(grace))
    wait(ada, "ada's page follows grace's add", lambda: "Blue Train" in cover_titles(ada))
    mine = "Undo your Delete “%s”" % victim
    wait(ada, "ada's Undo names her delete", lambda: button(ada, "undo").text == mine)
    wait(grace, "grace's Undo names her add", lambda: button(grace, "undo").text == "Undo your Add “Blue Train”")
    shot(ada, "two-authors-ada")
    button(ada, "undo").click()
    wait(ada, "ada's album back", lambda: victim in cover_titles(ada))
    if "Blue Train" not in cover_titles(ada):
        fail("ada's undo took grace's add too")
    wait(ada, "ada's status", lambda: text(ada, "status").startswith("Undid your Delete “%s”" % victim))
    wait(grace, "grace's page follows ada's undo", lambda: victim in cover_titles(grace))
    if "Blue Train" not in cover_titles(grace):
        fail("grace's add is gone from her page")
    wait(ada, "ada's Redo names her delete", lambda: button(ada, "redo").text == "Redo your Delete “%s”" % victim)
    ok("two authors: ada's Undo read %r and kept grace's add; grace's page followed" % mine)

    # 12. A conflict: ada edits the year, then grace edits the same year. ada's page, not live
    # (its stream blocked), still offers "Undo your Edit"; pressed, the library refuses it naming
    # grace, the page says so and refreshes: Undo disabled with the reason; Ctrl+Z says it too.
    choose(ada, victim)
    ActionChains(ada).send_keys("e").perform()
    wait(ada, "ada's edit form", lambda: ada.find_element(By.ID, "form-dialog").get_attribute("open") is not None)
    year = ada.find_element(By.ID, "f-year")
    year.clear()
    year.send_keys("1990" + Keys.ENTER)
    wait(ada, "ada's year", lambda: text(ada, "d-year") == "1990")
    edit = "Undo your Edit “%s”" % victim
    wait(ada, "ada's Undo names her edit", lambda: button(ada, "undo").text == edit)
    ada.execute_cdp_cmd("Network.enable", {})
    ada.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/events*"]})
    ada.refresh()
    wait(ada, "ada's page, not live", lambda: button(ada, "undo").text == edit and text(ada, "live") != "live")
    wait(grace, "grace sees the album", lambda: victim in cover_titles(grace))
    choose(grace, victim)
    wait(grace, "grace sees ada's year", lambda: text(grace, "d-year") == "1990")
    ActionChains(grace).send_keys("e").perform()
    wait(grace, "grace's edit form", lambda: grace.find_element(By.ID, "form-dialog").get_attribute("open") is not None)
    year = grace.find_element(By.ID, "f-year")
    year.clear()
    year.send_keys("2002" + Keys.ENTER)
    wait(grace, "grace's year", lambda: text(grace, "d-year") == "2002")
    reason = "grace changed the year of “%s” after your edit" % victim
    if not button(ada, "undo").is_enabled():
        fail("ada's stale page followed grace's edit")
    button(ada, "undo").click()
    wait(ada, "the refusal, said", lambda: reason in text(ada, "status") and "the page is refreshed" in text(ada, "status"))
    wait(ada, "ada's page refreshed", lambda: text(ada, "d-year") == "2002")
    wait(ada, "ada's Undo refused, naming grace",
         lambda: not button(ada, "undo").is_enabled() and reason in text(ada, "undo-note"))
    if reason not in button(ada, "undo").get_attribute("title"):
        fail("the refused Undo's tooltip reads %r" % button(ada, "undo").get_attribute("title"))
    ada.execute_script("document.getElementById('covers').focus()")
    ActionChains(ada).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    wait(ada, "Ctrl+Z says why", lambda: reason in text(ada, "status"))
    if text(ada, "d-year") != "2002":
        fail("ada's refused undo changed the year")
    shot(ada, "two-authors-conflict")
    ada.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    ada.refresh()
    wait(ada, "ada's page live again", lambda: text(ada, "live") == "live")
    ok("a conflict: ada's Undo says %r" % text(ada, "undo-note"))

    # 13. A name the server refuses: the one-line reason, the name before it kept.
    name_as(ada, "x" * 70)
    wait(ada, "the name refused", lambda: "a name is at most 64 characters" in text(ada, "status"))
    if ada.execute_script("return localStorage.getItem('albums.author')") != "ada":
        fail("a refused name was stored")
    if ada.find_element(By.ID, "author").get_attribute("aria-invalid") != "true":
        fail("the refused name is not marked")
    ok("a bad name is refused with its reason")


def run(driver):
    # 1. The page opens: five covers, the first album's details, Undo disabled.
    driver.get(URL)
    wait(driver, "five covers", lambda: len(covers(driver)) == 5)
    wait(driver, "the live dot", lambda: text(driver, "live") == "live")
    if text(driver, "d-title") != "Best of Bowie":
        fail("details show %r" % text(driver, "d-title"))
    if button(driver, "undo").is_enabled():
        fail("Undo is enabled with nothing to undo")
    path = shot(driver, "desktop-1280x800")
    image = png_pixels(path)
    colours = {pixel(image, x, y) for x in range(0, image[0], 16) for y in range(0, image[1], 16)}
    if len(colours) < 20:
        fail("the screenshot is nearly blank (%d colours)" % len(colours))
    first = covers(driver)[0]
    ratio = driver.execute_script("return window.devicePixelRatio") or 1
    box = first.find_element(By.CSS_SELECTOR, ".art").rect
    centre = pixel(image, int((box["x"] + box["width"] * 0.2) * ratio), int((box["y"] + box["height"] * 0.2) * ratio))
    background = pixel(image, 2, int(image[1] * 0.95))
    if centre == background or max(centre) - min(centre) < 20:
        fail("the first cover is not drawn (pixel %r, background %r)" % (centre, background))
    ok("page opened, covers drawn (pixel %r on background %r)" % (centre, background))

    # Scenarios 2 to 10 use the shared history's Undo (everyone's), chosen here and kept.
    Select(driver.find_element(By.ID, "undo-scope")).select_by_value("everyone")
    wait(driver, "the scope kept", lambda: driver.execute_script("return localStorage.getItem('albums.undo')") == "everyone")

    # 2. Delete with the toolbar: Undo names the step.
    button(driver, "delete").click()
    wait(driver, "four covers", lambda: len(covers(driver)) == 4)
    wait(driver, "Undo enabled", lambda: button(driver, "undo").is_enabled())
    if button(driver, "undo").text != "Undo Delete “Best of Bowie”":
        fail("Undo reads %r" % button(driver, "undo").text)
    ok("deleted with the toolbar; " + button(driver, "undo").text)

    # 3. Undo: the album is back, Redo names it.
    button(driver, "undo").click()
    wait(driver, "five covers again", lambda: len(covers(driver)) == 5)
    wait(driver, "Redo names the step", lambda: button(driver, "redo").text == "Redo Delete “Best of Bowie”")
    ok("undone")

    # 4. Reload: it persisted.
    driver.refresh()
    wait(driver, "five covers after reload", lambda: len(covers(driver)) == 5)
    wait(driver, "Redo after reload", lambda: button(driver, "redo").text == "Redo Delete “Best of Bowie”")
    if driver.find_element(By.ID, "undo-scope").get_attribute("value") != "everyone":
        fail("the Undo scope was not kept")
    ok("reload shows the same library and history")

    # 5. Two windows follow each other.
    first_window = driver.current_window_handle
    driver.switch_to.new_window("window")
    driver.get(URL)
    wait(driver, "five covers in the second window", lambda: len(covers(driver)) == 5)
    wait(driver, "the second window is live", lambda: text(driver, "live") == "live")
    button(driver, "delete").click()
    wait(driver, "four covers in the second window", lambda: len(covers(driver)) == 4)
    second_window = driver.current_window_handle
    driver.switch_to.window(first_window)
    wait(driver, "the first window follows", lambda: len(covers(driver)) == 4)
    wait(driver, "the first window's Undo", lambda: button(driver, "undo").text == "Undo Delete “Best of Bowie”")
    driver.switch_to.window(second_window)
    driver.close()
    driver.switch_to.window(first_window)
    ok("two windows follow each other")

    # 6. A change made by the CLI appears.
    cli("add", "--title", "From the CLI", "--artist", "Terminal")
    wait(driver, "the CLI's album", lambda: "From the CLI" in cover_titles(driver))
    wait(driver, "Undo names the CLI's step", lambda: button(driver, "undo").text == "Undo Add “From the CLI”")
    ok("a CLI change appears")

    # 7. A stale action is refused: with the page no longer live (its event stream blocked), the
    # CLI changes the history; the page's Undo names a step that is no longer last.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/events*"]})
    driver.refresh()
    wait(driver, "the page reloaded", lambda: "From the CLI" in cover_titles(driver))
    wait(driver, "the stream is blocked", lambda: text(driver, "live") != "live")
    cli("delete", "From the CLI")
    button(driver, "undo").click()
    wait(driver, "the refusal", lambda: "another process changed the history" in text(driver, "status"))
    wait(driver, "the page refreshed", lambda: "From the CLI" not in cover_titles(driver))
    wait(driver, "Undo names the new step", lambda: button(driver, "undo").text == "Undo Delete “From the CLI”")
    shot(driver, "stale-refused")
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    driver.refresh()
    wait(driver, "live again", lambda: text(driver, "live") == "live")
    ok("a stale undo is refused, the page refreshed")

    # 8. Keyboard only: arrows, Delete, Ctrl+Z, the author's name.
    author = driver.find_element(By.ID, "author")
    author.click()
    author.send_keys("kay" + Keys.TAB)
    wait(driver, "the name is kept", lambda: driver.execute_script("return localStorage.getItem('albums.author')") == "kay")
    driver.execute_script("document.getElementById('covers').focus()")
    keys = ActionChains(driver)
    keys.send_keys(Keys.HOME).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    wait(driver, "the third album", lambda: text(driver, "d-position").startswith("3 of"))
    chosen = text(driver, "d-title")
    ActionChains(driver).send_keys(Keys.DELETE).perform()
    wait(driver, "deleted by key", lambda: chosen not in cover_titles(driver))
    wait(driver, "the history names kay", lambda: "kay" in text(driver, "history"))
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    wait(driver, "undone by Ctrl+Z", lambda: chosen in cover_titles(driver))
    ActionChains(driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
    wait(driver, "redone by Shift+Ctrl+Z", lambda: chosen not in cover_titles(driver))
    ActionChains(driver).send_keys("a").perform()
    wait(driver, "the add form", lambda: driver.find_element(By.ID, "form-dialog").get_attribute("open") is not None)
    ActionChains(driver).send_keys("Typed <b>Title</b>").send_keys(Keys.TAB).send_keys("Keys Only").send_keys(Keys.ENTER).perform()
    wait(driver, "the typed album", lambda: "Typed <b>Title</b>" in cover_titles(driver))
    if driver.find_elements(By.CSS_SELECTOR, "#covers b"):
        fail("a title became markup")
    ok("keyboard only: arrows, Delete, Ctrl+Z, Shift+Ctrl+Z, the add form")

    # 9. Edit, move and search through the page.
    driver.execute_script("document.getElementById('covers').focus()")
    ActionChains(driver).send_keys(Keys.HOME).perform()
    wait(driver, "the first album", lambda: text(driver, "d-position").startswith("1 of"))
    title = text(driver, "d-title")
    ActionChains(driver).send_keys("e").perform()
    wait(driver, "the edit form", lambda: driver.find_element(By.ID, "form-dialog").get_attribute("open") is not None)
    year = driver.find_element(By.ID, "f-year")
    year.clear()
    year.send_keys("1999" + Keys.ENTER)
    wait(driver, "the year edited", lambda: text(driver, "d-year") == "1999")
    ActionChains(driver).send_keys("m").perform()
    wait(driver, "the move form", lambda: driver.find_element(By.ID, "move-dialog").get_attribute("open") is not None)
    target = driver.find_element(By.ID, "m-to")
    target.clear()
    target.send_keys("2" + Keys.ENTER)
    wait(driver, "moved to 2", lambda: text(driver, "d-position").startswith("2 of") and text(driver, "d-title") == title)
    search = driver.find_element(By.ID, "search")
    search.send_keys("keys only")
    wait(driver, "the search", lambda: cover_titles(driver) == ["Typed <b>Title</b>"])
    search.send_keys(Keys.CONTROL + "a", Keys.BACKSPACE)
    wait(driver, "the search cleared", lambda: len(cover_titles(driver)) > 1)
    ok("edit, move and search through the page")

    # 10. Stored covers: a file picked in the details is stored and drawn; a stored image that
    # does not load (valid magic, damaged bytes, set by the CLI) falls back to the generated cover.
    red = os.path.join(SHOTS, "red-cover.png")
    with open(red, "wb") as out:
        out.write(solid_png(64, 64, (220, 40, 40)))
    broken = os.path.join(SHOTS, "broken-cover.png")
    with open(broken, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + b"damaged" * 8)
    driver.execute_script("document.getElementById('covers').focus()")
    ActionChains(driver).send_keys(Keys.HOME).perform()
    wait(driver, "the first album again", lambda: text(driver, "d-position").startswith("1 of"))
    driver.find_element(By.ID, "cover-file").send_keys(red)
    wait(driver, "the cover stored", lambda: text(driver, "status").startswith("Set the cover of"))
    drawn = "const i = document.querySelector('.cover.selected .c-image'); return !!i && i.complete && i.naturalWidth"
    wait(driver, "the stored image drawn", lambda: driver.execute_script(drawn) == 64)
    cli("cover", "set", "2", broken)
    wait(driver, "the CLI's cover followed", lambda: "Set the cover of" in text(driver, "history").split("\n")[0])
    second = "return document.querySelectorAll('.cover')[1].querySelectorAll('img').length"
    wait(driver, "a broken image removed", lambda: driver.execute_script(second) == 0)
    if driver.execute_script("return Array.from(document.images).some(i => i.complete && i.naturalWidth === 0)"):
        fail("a broken image is shown")
    shot(driver, "stored-covers")
    ok("stored covers: picked, drawn, a broken one falls back to the generated cover")

    # 11. Phone size: one column, nothing wider than the screen.
    driver.set_window_size(390, 844)
    wait(driver, "the phone layout", lambda: driver.execute_script("return window.innerWidth") <= 400)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        fail("the page is %dpx wider than a phone" % overflow)
    for element_id in ["undo", "redo", "add", "edit", "move", "delete", "search"]:
        if not button(driver, element_id).is_displayed():
            fail(element_id + " is hidden on a phone")
    shot(driver, "phone-390x844")
    ok("phone size")

    # 11. A stream gone quiet: the server paused (its connection open, no heartbeat, which the
    # test server sends every 300 ms), the page notices, and it is live again once the server is.
    wait(driver, "live before the pause", lambda: text(driver, "live") == "live")
    os.kill(int(SERVER_PID), signal.SIGSTOP)
    try:
        wait(driver, "the page notices the missed heartbeats", lambda: text(driver, "live") == "reconnecting…")
    finally:
        os.kill(int(SERVER_PID), signal.SIGCONT)
    wait(driver, "live again after the pause", lambda: text(driver, "live") == "live")
    ok("a quiet stream is noticed and reopened")


if __name__ == "__main__":
    main()
