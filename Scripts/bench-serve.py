#!/usr/bin/python3
"""bench-serve.py ALBUMS_BINARY [PART ...]: issue 23's speed figures for `albums serve`.

Parts (all by default), each on a fresh library in a temporary folder, the server a real process:

  ready     Page ready in headless Chromium on 5 albums and on 100,005 albums: from navigation
            start (performance.timeOrigin) to the first animation frame after the first screen's
            covers are in the page and every stored image among them has decoded. Target ≤ 300 ms.
  fanout    20 other open pages follow a change: 20 clients on /api/events, each doing what the
            page does on an event (GET /api/state with its window and mine=1); the time from
            sending the change to each client holding the new state. Target p99 ≤ 250 ms. Once
            with the changes sent through the API (a page's), once by `albums add` processes.
  clients   50 concurrent API clients, 2,000 requests in all (add, delete, undo, redo, each undo
            and redo naming the step it expects): every answered change is replayed in revision
            order on a model of the library and its history (the step each undo or redo names
            must be the model's, each delete's album must be in the model), and the model must
            equal the library the server holds at the end. Target: 0 violations.
  idle      The server's CPU time over 30 s with 20 open event streams (what 20 idle pages hold
            open) and nothing changing, from /proc/PID/stat. Target < 1 % of one core.

Chromium and chromedriver are Debian's (never downloaded); SE_AVOID_STATS keeps Selenium quiet:
nothing leaves the loopback address. Prints `key=value` lines and a summary per part.
"""
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

os.environ.setdefault("SE_AVOID_STATS", "true")

ALBUMS = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else sys.exit(__doc__)
PARTS = sys.argv[2:] or ["ready", "fanout", "clients", "idle"]
SEED = int(os.environ.get("SEED", "23"))
HEADERS = {"X-Albums-Request": "1", "Content-Type": "application/json"}


def log(line):
    print(line, flush=True)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def solid_png(width, height, color):
    rows = b"".join(b"\x00" + bytes(color) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class Library:
    """A library file in a temporary folder: the seed's five albums (none if `empty`), plus `extra`
    imported ones."""

    def __init__(self, extra=0, empty=False):
        self.folder = tempfile.mkdtemp(prefix="bench-serve.")
        self.path = os.path.join(self.folder, "library.sqlite")
        self.cli("init", self.path, *(["--empty"] if empty else []), with_db=False)
        if extra:
            source = os.path.join(self.folder, "albums.json")
            with open(source, "w") as handle:
                json.dump([{"title": f"Album {n}", "artist": f"Artist {n % 100}",
                            "genre": ["Rock", "Jazz", "Pop"][n % 3], "year": 1950 + n % 70}
                           for n in range(extra)], handle)
            self.cli("import", source)

    def cli(self, *arguments, with_db=True):
        command = [ALBUMS] + (["--db", self.path] if with_db else []) + list(arguments)
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)


class Server:
    """`albums serve --port 0` on a library, until `stop()` (SIGTERM, then its exit status)."""

    def __init__(self, library, *options):
        self.process = subprocess.Popen([ALBUMS, "--db", library.path, "serve", "--port", "0", *options],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not found:
            self.process.kill()
            sys.exit("bench-serve: the server printed no URL: %r" % line)
        self.port = int(found.group(1))
        self.url = found.group(0)
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
            connection.request(method, path, body=data, headers=dict(HEADERS, **(headers or {})))
            response = connection.getresponse()
            payload = response.read()
            try:
                return response.status, json.loads(payload) if payload else {}
            except ValueError:
                return response.status, {}
        finally:
            connection.close()

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


class EventStream:
    """One open /api/events stream on a raw socket; calls `on_revision(n)` for each revision seen."""

    def __init__(self, port, on_revision=None):
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.socket.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                            "Accept: text/event-stream\r\n\r\n".encode())
        self.on_revision = on_revision
        self.revision = -1
        self.opened = threading.Event()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        while True:
            try:
                data = self.socket.recv(65536)
            except OSError:
                return
            if not data:
                return
            buffer += data
            for match in re.finditer(rb'"revision"\s*:\s*(\d+)', buffer):
                revision = int(match.group(1))
                if revision > self.revision:
                    self.revision = revision
                    if self.on_revision:
                        self.on_revision(revision)
            self.opened.set()
            buffer = buffer[-64:]

    def close(self):
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.socket.close()


# ---------------------------------------------------------------------------------------------
# ready

READY_PROBE = """
(() => {
  const done = () => {
    const covers = Array.from(document.querySelectorAll('#covers li.cover'));
    if (covers.length === 0) return false;
    const strip = document.getElementById('covers').getBoundingClientRect();
    const visible = covers.filter((li) => li.getBoundingClientRect().left < strip.right);
    const images = visible.map((li) => li.querySelector('img')).filter((image) => image);
    window.__benchCovers = [visible.length, images.length];
    return images.every((image) => image.complete && image.naturalWidth > 0);
  };
  const look = () => {
    if (done()) {
      requestAnimationFrame(() => { window.__benchReady = performance.now(); });
    } else {
      requestAnimationFrame(look);
    }
  };
  requestAnimationFrame(look);
})();
"""


def make_driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800", "--no-first-run", "--no-default-browser-check",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-extensions", "--metrics-recording-only", "--no-proxy-server",
                     "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": READY_PROBE})
    return driver


def page_ready(driver, url, loads=7):
    """Median and each of `loads` page loads after one warm-up, with the cache off (a first visit)."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    times, paints = [], []
    for attempt in range(loads + 1):
        driver.get("about:blank")
        driver.get(url)
        deadline = time.time() + 60
        ready = None
        while ready is None and time.time() < deadline:
            ready = driver.execute_script("return window.__benchReady || null")
            if ready is None:
                time.sleep(0.01)
        if ready is None:
            sys.exit("bench-serve: the page never drew its covers")
        covers = driver.execute_script("return window.__benchCovers")
        paint = driver.execute_script(
            "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null")
        if attempt > 0:
            times.append(ready)
            paints.append(paint or 0.0)
    return times, paints, covers


def part_ready():
    driver = make_driver()
    try:
        for extra in (0, 100_000):
            library = Library(extra)
            # Stored images on the first screen, so "covers drawn" includes fetching and decoding them.
            image = os.path.join(library.folder, "cover.png")
            for position in range(1, 6):
                with open(image, "wb") as handle:
                    handle.write(solid_png(300, 300, (40 * position, 90, 200 - 30 * position)))
                library.cli("cover", "set", str(position), image)
            server = Server(library)
            try:
                count = server.request("GET", "/api/state?limit=0")[1]["count"]
                times, paints, (covers, images) = page_ready(driver, server.url)
            finally:
                server.stop()
                library.remove()
            median = statistics.median(times)
            log(f"ready.albums={count} first_screen_covers={covers} stored_images={images} ready_ms_median={median:.1f} ready_ms_all={'/'.join('%.0f' % t for t in times)} "
                f"first_contentful_paint_ms_median={statistics.median(paints):.1f} target_ms=300 "
                f"met={'yes' if median <= 300 else 'NO'}")
    finally:
        driver.quit()


# ---------------------------------------------------------------------------------------------
# fanout

def part_fanout():
    fanout(via="page")
    fanout(via="cli", changes=20)


def fanout(via, pages=20, changes=50):
    """`via` "page": each change through the API, as a page sends it; "cli": an `albums` process
    (sent = just before it starts), which the server finds by looking at the file every 50 ms."""
    library = Library()
    server = Server(library)
    try:
        # When each page first held each revision, and when each change was sent: compared at the
        # end, since a page can hold a change before its sender has read the answer.
        arrivals = {}  # (page, revision) -> time
        lock = threading.Lock()
        sent = {}  # revision -> time the change was sent

        def page(index):
            state = {"have": -1}
            wake = threading.Condition()

            def on_revision(revision):
                with wake:
                    state["want"] = revision
                    wake.notify()

            stream = EventStream(server.port, on_revision)

            def follow():
                while True:
                    with wake:
                        while state.get("want", -1) <= state["have"]:
                            wake.wait()
                        want = state["want"]
                    # What the page does on an event: its window of the state, with the mine preview.
                    status, body = server.request("GET", f"/api/state?offset=0&limit=200&mine=1&author=page{index}")
                    held = body.get("revision", -1)
                    now = time.monotonic()
                    with lock:
                        for revision in range(state["have"] + 1, held + 1):
                            arrivals[(index, revision)] = now
                    state["have"] = max(state["have"], held)

            threading.Thread(target=follow, daemon=True).start()
            return stream

        streams = [page(i) for i in range(pages)]
        for stream in streams:
            stream.opened.wait(30)
        time.sleep(1.0)  # every page has loaded the start state
        start_revision = server.request("GET", "/api/state?limit=0")[1]["revision"]
        rng = random.Random(SEED)
        for number in range(changes):
            sent_at = time.monotonic()
            if via == "cli":
                answer = library.cli("--json", "add", "--title", f"Fan-out {number}", "--artist", "Shell")
                status, body = 200, json.loads(answer)
            elif number % 2 == 0:
                status, body = server.request("POST", "/api/albums", {"title": f"Fan-out {number}", "artist": "Bench",
                                                                      "author": "sender"})
            else:
                status, body = server.request("POST", "/api/undo", {})
            if status >= 300:
                sys.exit(f"bench-serve: change {number} refused: {status} {body}")
            with lock:
                sent[body["revision"]] = sent_at
            time.sleep(rng.uniform(0.2, 0.4))
        wanted = [(index, revision) for index in range(pages) for revision in sent]
        deadline = time.time() + 30
        while time.time() < deadline:
            with lock:
                if all(key in arrivals for key in wanted):
                    break
            time.sleep(0.05)
        with lock:
            latencies = [(arrivals[key] - sent[key[1]]) * 1000 for key in wanted if key in arrivals]
        missing = pages * changes - len(latencies)
        for stream in streams:
            stream.close()
        log(f"fanout.via={via} pages={pages} changes={changes} deliveries={len(latencies)} missing={missing} "
            f"p50_ms={percentile(latencies, 0.5):.1f} p99_ms={percentile(latencies, 0.99):.1f} "
            f"max_ms={max(latencies):.1f} target_p99_ms=250 "
            f"met={'yes' if missing == 0 and percentile(latencies, 0.99) <= 250 else 'NO'} "
            f"revisions={start_revision + 1}..{start_revision + changes}")
    finally:
        server.stop()
        library.remove()


# ---------------------------------------------------------------------------------------------
# clients

def part_clients(clients=50, requests_in_all=2000):
    library = Library(empty=True)  # no step before the run: the model starts with an empty history
    server = Server(library)
    answers = []  # (revision, kind, request, answer)
    refusals = {}
    unexpected = []
    latencies = []
    lock = threading.Lock()
    try:
        start = server.request("GET", "/api/state?limit=1000")[1]
        model_albums = [album["id"] for album in start["albums"]]

        def client(number):
            rng = random.Random(SEED * 1000 + number)
            for step in range(requests_in_all // clients):
                kind = rng.choices(["add", "delete", "undo", "redo"], [4, 3, 2, 1])[0]
                began = time.monotonic()
                if kind == "add":
                    request = {"title": f"Client {number} step {step}", "artist": f"Client {number}",
                               "author": f"c{number}"}
                    status, body = server.request("POST", "/api/albums", request)
                elif kind == "delete":
                    albums = server.request("GET", "/api/state?limit=50")[1]["albums"]
                    if not albums:
                        continue
                    request = {"id": rng.choice(albums)["id"]}
                    status, body = server.request("DELETE", f"/api/albums/{request['id']}", {"author": f"c{number}"})
                elif rng.random() < 0.5:
                    # The step this client saw, refused (409) if another client's change came first.
                    shown = server.request("GET", "/api/state?limit=0")[1].get(kind)
                    request = {"expecting": shown["id"], "text": shown["text"]} if shown else {}
                    status, body = server.request("POST", f"/api/{kind}",
                                                  {"expecting": shown["id"], "author": f"c{number}"} if shown else {})
                else:
                    # Whatever step is next when the server decides: the answer must name it.
                    request = {}
                    status, body = server.request("POST", f"/api/{kind}", {"author": f"c{number}"})
                elapsed = (time.monotonic() - began) * 1000
                with lock:
                    latencies.append(elapsed)
                    if 200 <= status < 300:
                        if not isinstance(body.get("revision"), int) or not body.get("message") or not body.get("steps"):
                            unexpected.append(f"client {number}: an answer that names no step: {body}")
                        answers.append((body.get("revision"), kind, request, body))
                    elif status in (404, 409):
                        code = body.get("error", {}).get("code", "?")
                        refusals[code] = refusals.get(code, 0) + 1
                    else:
                        unexpected.append(f"client {number} {kind}: {status} {body}")

        threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.monotonic() - began

        # Replay the answers in revision order on a model: the albums by id, the undo and redo stacks.
        violations = list(unexpected)
        answers.sort(key=lambda entry: entry[0])
        revisions = [entry[0] for entry in answers]
        if revisions != list(range(start["revision"] + 1, start["revision"] + 1 + len(answers))):
            violations.append("the answered revisions are not exactly the ones after the start, once each")
        undo_stack, redo_stack = [], []  # (text, inverse) where inverse re-applies on the model
        for revision, kind, request, body in answers:
            steps = body["steps"]
            if kind == "add":
                album = body.get("album", {})
                model_albums.append(album.get("id"))
                undo_stack.append((steps[0], ("add", album.get("id"), len(model_albums) - 1)))
                redo_stack.clear()
            elif kind == "delete":
                if request["id"] not in model_albums:
                    violations.append(f"revision {revision}: deleted {request['id']}, which the model does not hold")
                    continue
                if body.get("album", {}).get("id") != request["id"]:
                    violations.append(f"revision {revision}: asked to delete {request['id']}, answered {body.get('album')}")
                index = model_albums.index(request["id"])
                model_albums.pop(index)
                undo_stack.append((steps[0], ("delete", request["id"], index)))
                redo_stack.clear()
            else:
                source, target = (undo_stack, redo_stack) if kind == "undo" else (redo_stack, undo_stack)
                if not source:
                    violations.append(f"revision {revision}: {kind} answered with nothing to {kind} in the model")
                    continue
                text, (what, album_id, index) = source.pop()
                if steps != [text] or ("text" in request and request["text"] != text):
                    violations.append(f"revision {revision}: {kind} of {steps}, the model's next is {text!r} "
                                      f"(the client showed {request.get('text')!r})")
                removing = (what == "add") == (kind == "undo")
                if removing:
                    if album_id in model_albums:
                        model_albums.remove(album_id)
                    else:
                        violations.append(f"revision {revision}: {kind} removes {album_id}, not in the model")
                else:
                    model_albums.insert(index, album_id)
                target.append((text, (what, album_id, index)))

        # The library the server holds at the end, every album, in order.
        held, offset = [], 0
        while True:
            window = server.request("GET", f"/api/state?offset={offset}&limit=1000")[1]
            held += [album["id"] for album in window["albums"]]
            offset += 1000
            if offset >= window["count"]:
                break
        if held != model_albums:
            violations.append(f"the library holds {len(held)} albums, the model {len(model_albums)}, "
                              f"or another order")
        done = {kind: sum(1 for entry in answers if entry[1] == kind) for kind in ("add", "delete", "undo", "redo")}
        log(f"clients.clients={clients} requests={len(latencies)} applied={len(answers)} "
            f"applied_by_kind={','.join(f'{k}:{v}' for k, v in done.items())} "
            f"refused={','.join(f'{k}:{v}' for k, v in sorted(refusals.items())) or 'none'} "
            f"seconds={seconds:.1f} p50_ms={percentile(latencies, 0.5):.1f} p99_ms={percentile(latencies, 0.99):.1f} "
            f"albums_at_end={len(held)} violations={len(violations)} seed={SEED} "
            f"met={'yes' if not violations else 'NO'}")
        for violation in violations[:20]:
            log("  violation: " + violation)
    finally:
        server.stop()
        library.remove()


# ---------------------------------------------------------------------------------------------
# idle

def part_idle(pages=20, seconds=30):
    library = Library()
    server = Server(library)
    try:
        streams = [EventStream(server.port) for _ in range(pages)]
        for stream in streams:
            stream.opened.wait(30)
        time.sleep(2.0)
        before, began = server.cpu_seconds(), time.monotonic()
        time.sleep(seconds)
        used, wall = server.cpu_seconds() - before, time.monotonic() - began
        alive = sum(1 for stream in streams if stream.revision >= 0)
        for stream in streams:
            stream.close()
        share = 100 * used / wall
        log(f"idle.pages={pages} open_streams={alive} seconds={wall:.1f} cpu_seconds={used:.3f} "
            f"cpu_percent_of_one_core={share:.2f} target_percent=1 met={'yes' if share < 1 else 'NO'}")
    finally:
        server.stop()
        library.remove()


if __name__ == "__main__":
    with open("/proc/loadavg") as handle:
        log(f"bench-serve: {subprocess.run([ALBUMS, '--version'], capture_output=True, text=True).stdout.strip()}, "
            f"load {' '.join(handle.read().split()[:3])}, seed {SEED}")
    for part in PARTS:
        {"ready": part_ready, "fanout": part_fanout, "clients": part_clients, "idle": part_idle}[part]()
