#!/usr/bin/env python3
"""The showcase's page (target/web/, from scripts/web.sh) tested in headless Chromium.

    scripts/web-test.py [--frames N] [--seed S] [--shots DIR] [--demo NAME]...

Serves target/web/ on 127.0.0.1 (a free port) and drives Debian's Chromium through its
DevTools protocol over a pipe (--remote-debugging-pipe: Python's standard library only, no
WebSocket client, no npm). For each demo (default: dungeon, slide, maze, pixels, swarm, platformer):

1. loads /?demo=NAME&seed=S&frames=N&shot in a fresh tab (a 1280x720 canvas, the headless
   frame's layout), waits until the page reports N frames (body's data-frames), failing on any
   console error, uncaught exception, panic or data-error;
2. takes a screenshot and compares it with the native headless render of the same demo, seed
   and frame count (DIR/NAME.png, from `lore-showcase --headless`), pixel by pixel: see
   TOLERANCE below for the bound and why it is not zero.

Then, on the swarm's interactive page (panels and all), it clicks the scene, presses `2` and
checks that the key reached the demo: the page's count of key presses handed to the demo goes
up and the demo's statistics name the index the key selects instead of the one before. Last,
it clicks the dungeon's interactive page (its sound starts: WebAudio) and runs it for a while,
failing on any console error, and prints its frame time (the page's
data-work-ms: stepping, drawing and encoding, smoothed; and data-fps).

Exit status 0 when everything passes; 1 with a message naming the demo and the check otherwise.
"""

import argparse
import base64
import fcntl
import functools
import http.server
import json
import os
import queue
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DEMOS = ["dungeon", "slide", "maze", "pixels", "swarm", "platformer"]
WIDTH, HEIGHT = 1280, 720

# The comparison: a pixel "differs" when a channel is off by more than PIXEL_DIFF; a demo
# passes when at most MAX_DIFFERING of the compared pixels differ and the mean channel
# difference is at most MAX_MEAN. Not zero because the two frames come from different
# rasterizers (Chromium's SwiftShader through WebGL2 against Mesa's lavapipe through Vulkan):
# 4x MSAA coverage of edges, and the rounding of blending, differ by a few levels along every
# edge. The caption band (the bottom CAPTION_ROWS rows) is left out: the caption prints the
# demo's statistics, which include wall-clock timings (swarm, pixels, dungeon).
PIXEL_DIFF = 40
MAX_DIFFERING = 0.01
MAX_MEAN = 1.5
CAPTION_ROWS = 80

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    # WebGL2 on the CPU: SwiftShader through ANGLE (there is no GPU here).
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--remote-debugging-pipe",
]


class Failure(Exception):
    """A check that failed; the message names the demo and the check."""


class Chromium:
    """Chromium driven over --remote-debugging-pipe (fd 3: commands in, fd 4: replies out,
    each message JSON ended by a NUL byte)."""

    def __init__(self, binary, profile):
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        # Out of the way of 3 and 4, so the child's dup2s cannot clobber one another.
        to_r2, from_w2 = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
        os.close(to_r)
        os.close(from_w)

        def child():
            os.dup2(to_r2, 3)
            os.dup2(from_w2, 4)

        self.proc = subprocess.Popen(
            [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=child,
            pass_fds=(3, 4),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_r2)
        os.close(from_w2)
        self.out = os.fdopen(to_w, "wb", buffering=0)
        self.inp = os.fdopen(from_r, "rb", buffering=0)
        self.next_id = 0
        self.replies = {}
        self.events = queue.Queue()
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        while True:
            chunk = self.inp.read(1 << 16)
            if not chunk:
                with self.cond:
                    self.replies[None] = "closed"
                    self.cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg:
                    with self.cond:
                        self.replies[msg["id"]] = msg
                        self.cond.notify_all()
                else:
                    self.events.put(msg)

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.out.write(json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self.cond:
            while mid not in self.replies:
                if None in self.replies:
                    raise Failure(f"Chromium closed its pipe during {method}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failure(f"no reply from Chromium to {method} within {timeout} s")
                self.cond.wait(left)
            reply = self.replies.pop(mid)
        if "error" in reply:
            raise Failure(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Failure:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Tab:
    """One page, with its console watched."""

    def __init__(self, chrome, url):
        self.chrome = chrome
        target = chrome.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.target = target
        self.session = chrome.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            self.call(domain)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
        )
        self.problems = []
        self.warnings = []
        self.call("Page.navigate", {"url": url})

    def call(self, method, params=None, timeout=60):
        return self.chrome.send(method, params, session=self.session, timeout=timeout)

    def drain(self):
        """Sorts the events so far: console errors and exceptions are problems."""
        while True:
            try:
                ev = self.chrome.events.get_nowait()
            except queue.Empty:
                return
            if ev.get("sessionId") != self.session:
                continue
            method, p = ev.get("method"), ev.get("params", {})
            if method == "Runtime.consoleAPICalled":
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                if p.get("type") in ("error", "assert"):
                    self.problems.append(f"console.error: {text}")
                elif p.get("type") == "warning":
                    self.warnings.append(text)
            elif method == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                self.problems.append(f"uncaught: {d.get('exception', {}).get('description', d.get('text'))}")
            elif method == "Log.entryAdded":
                e = p.get("entry", {})
                if e.get("level") == "error":
                    self.problems.append(f"browser log error: {e.get('text')} ({e.get('url', '')})")
                elif e.get("level") == "warning":
                    self.warnings.append(e.get("text", ""))

    def body(self, name):
        r = self.call("Runtime.evaluate", {"expression": f"document.body.getAttribute({json.dumps(name)})"})
        return r.get("result", {}).get("value")

    def check(self, what):
        self.drain()
        error = self.body("data-error")
        if error:
            self.problems.append(f"the page reports: {error}")
        if self.problems:
            raise Failure(f"{what}: " + "; ".join(self.problems))

    def wait_frames(self, n, what, timeout):
        deadline = time.monotonic() + timeout
        while True:
            self.check(what)
            frames = int(self.body("data-frames") or 0)
            if frames >= n:
                return frames
            if time.monotonic() > deadline:
                raise Failure(f"{what}: {frames} of {n} frames after {timeout} s")
            time.sleep(0.2)

    def screenshot(self):
        r = self.call(
            "Page.captureScreenshot",
            {"format": "png", "clip": {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "scale": 1}},
        )
        return decode_png(base64.b64decode(r["data"]))

    def close(self):
        self.chrome.send("Target.closeTarget", {"targetId": self.target})


def decode_png(data):
    """(width, height, RGBA bytes) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Failure("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    w, h, depth, color, _, _, interlace = ihdr
    if depth != 8 or color not in (2, 6) or interlace:
        raise Failure(f"unsupported PNG (depth {depth}, color type {color}, interlace {interlace})")
    bpp = 4 if color == 6 else 3
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    out = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        out[y * stride : (y + 1) * stride] = line
        prev = line
    if bpp == 3:
        rgba = bytearray(w * h * 4)
        rgba[0::4], rgba[1::4], rgba[2::4] = out[0::3], out[1::3], out[2::3]
        rgba[3::4] = b"\xff" * (w * h)
        out = rgba
    return w, h, bytes(out)


def compare(a, b):
    """(share of differing pixels, mean channel difference) over the frame above the caption."""
    (wa, ha, pa), (wb, hb, pb) = a, b
    if (wa, ha) != (wb, hb):
        raise Failure(f"sizes differ: {wa}x{ha} against {wb}x{hb}")
    rows = ha - CAPTION_ROWS
    differing, total = 0, 0
    n = wa * rows
    for i in range(n):
        j = i * 4
        d = max(abs(pa[j] - pb[j]), abs(pa[j + 1] - pb[j + 1]), abs(pa[j + 2] - pb[j + 2]))
        total += abs(pa[j] - pb[j]) + abs(pa[j + 1] - pb[j + 1]) + abs(pa[j + 2] - pb[j + 2])
        if d > PIXEL_DIFF:
            differing += 1
    return differing / n, total / (3 * n)


def write_png(path, w, h, rgba):
    raw = b"".join(b"\0" + rgba[y * w * 4 : (y + 1) * w * 4] for y in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def serve(directory):
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shots", required=True, help="folder of the native headless PNGs (NAME.png)")
    ap.add_argument("--demo", action="append", help="a demo to test (repeatable)")
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "web-test"), help="where the page's screenshots go")
    ap.add_argument("--timeout", type=float, default=180, help="seconds a page may take to reach its frames")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = ap.parse_args()
    web = os.path.join(ROOT, "target", "web")
    if not os.path.exists(os.path.join(web, "index.html")):
        print("web-test: no target/web/index.html; run scripts/web.sh first", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    server = serve(web)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    profile = tempfile.mkdtemp(prefix="lore-chromium-")
    chrome = Chromium(args.chromium, profile)
    failed = []
    try:
        version = chrome.send("Browser.getVersion")["product"]
        print(f"web-test: {version}, page served at {base}")
        for demo in args.demo or DEFAULT_DEMOS:
            start = time.monotonic()
            try:
                tab = Tab(chrome, f"{base}?demo={demo}&seed={args.seed}&frames={args.frames}&shot")
                tab.wait_frames(args.frames, demo, args.timeout)
                time.sleep(0.3)  # the last frame composited
                tab.check(demo)
                shot = tab.screenshot()
                write_png(os.path.join(args.out, f"{demo}.png"), *shot)
                native_path = os.path.join(args.shots, f"{demo}.png")
                with open(native_path, "rb") as f:
                    native = decode_png(f.read())
                share, mean = compare(shot, native)
                adapter = tab.body("data-adapter")
                tab.close()
                verdict = f"{share * 100:.2f}% of pixels differ (bound {MAX_DIFFERING * 100:.0f}%), mean {mean:.2f} (bound {MAX_MEAN})"
                if share > MAX_DIFFERING or mean > MAX_MEAN:
                    raise Failure(f"{demo}: the page's frame {args.frames} is not the native one: {verdict}")
                print(f"  {demo}: {args.frames} frames on {adapter} in {time.monotonic() - start:.1f} s; {verdict}")
            except Failure as e:
                print(f"  {demo}: FAILED: {e}", file=sys.stderr)
                failed.append(demo)
        try:
            key_test(chrome, base, args.timeout)
        except Failure as e:
            print(f"  key: FAILED: {e}", file=sys.stderr)
            failed.append("key")
        try:
            frame_time(chrome, base, args.timeout)
        except Failure as e:
            print(f"  frame time: FAILED: {e}", file=sys.stderr)
            failed.append("frame time")
    finally:
        chrome.close()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    if failed:
        print(f"web-test: FAILED: {', '.join(failed)}", file=sys.stderr)
        return 1
    print("web-test: every check passed")
    return 0


def key_test(chrome, base, timeout):
    """A key press reaches the demo: `2` on the swarm selects its second index."""
    tab = Tab(chrome, f"{base}?demo=swarm")
    tab.wait_frames(5, "swarm (interactive)", timeout)
    before = tab.body("data-stats")
    keys = int(tab.body("data-keys"))
    # A click in the scene (right of the side panel) gives the canvas the keyboard focus.
    for kind in ("mousePressed", "mouseReleased"):
        tab.call("Input.dispatchMouseEvent", {"type": kind, "x": 900, "y": 300, "button": "left", "clickCount": 1})
    tab.call("Runtime.evaluate", {"expression": "document.querySelector('canvas').focus()"})
    for kind in ("keyDown", "keyUp"):
        tab.call(
            "Input.dispatchKeyEvent",
            {"type": kind, "key": "2", "code": "Digit2", "text": "2" if kind == "keyDown" else "", "windowsVirtualKeyCode": 50},
        )
    frames = int(tab.body("data-frames"))
    tab.wait_frames(frames + 5, "swarm after the key", timeout)
    after = tab.body("data-stats")
    got = int(tab.body("data-keys"))
    tab.check("swarm (interactive)")
    tab.close()
    name = lambda s: (s or "").split(":")[0]
    if got <= keys:
        raise Failure(f"the key press did not reach the demo (key presses handed over: {keys} -> {got})")
    if name(after) == name(before):
        raise Failure(f"the swarm's index is still `{name(before)}` after pressing 2")
    print(f"  key: `2` reached the swarm: index `{name(before)}` -> `{name(after)}`")


def frame_time(chrome, base, timeout):
    """The dungeon's frame time in this browser (printed for docs/render.md)."""
    tab = Tab(chrome, f"{base}?demo=dungeon")
    tab.wait_frames(5, "dungeon (interactive)", timeout)
    # A click starts the page's sound (WebAudio): the dungeon's mix plays from then on, and
    # must not break the page.
    for kind in ("mousePressed", "mouseReleased"):
        tab.call("Input.dispatchMouseEvent", {"type": kind, "x": 900, "y": 300, "button": "left", "clickCount": 1})
    tab.wait_frames(240, "dungeon (interactive, sound on)", timeout)
    tab.check("dungeon (interactive)")
    work, fps, adapter = tab.body("data-work-ms"), tab.body("data-fps"), tab.body("data-adapter")
    tab.close()
    print(f"  frame time: dungeon on {adapter}: {work} ms of work per frame, {fps} fps (after 240 frames)")
    if tab.warnings:
        print(f"  (console warnings: {' | '.join(tab.warnings[:3])})")


if __name__ == "__main__":
    sys.exit(main())
