#!/usr/bin/env python3
"""Self-test of bench/ServerLoad.java against a fake server speaking the NEW move-answer shape
(docs/server-api.md, "Versions and events"): 201 + seat cookies on create (answered chunked, to test the raw
client's chunked reading), 200 {"version", "events": [move..., status...]} on moves, 403 without the Origin header
or the JSON content type or the seat cookie, a game finished after 6 moves. Checks nothing about the rules: the
client's picker=local plays real chess moves, the fake accepts any.

  python3 bench/server-load-mock.py PORT          # serves 127.0.0.1:PORT until killed (at most 10 minutes)
  java -cp koma.jar bench/ServerLoad.java base=http://127.0.0.1:PORT games=4 moves=10 warmup=0 [picker=server]
"""
import json
import secrets
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1])
BASE = "http://127.0.0.1:%d" % PORT
games = {}
lock = threading.Lock()
START = ["a2a3", "b2b3", "e2e4", "g1f3"]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, code, obj, cookies=(), chunked=False):
        body = json.dumps(obj, separators=(",", ":")).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        for c in cookies:
            self.send_header("Set-Cookie", c)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(body), 7):
                part = body[i:i + 7]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        req = json.loads(self.rfile.read(n) or b"{}")
        if self.headers.get("Origin") != BASE or self.headers.get("Content-Type") != "application/json":
            return self.answer(403, {"error": "origin: missing or foreign"})
        if self.path == "/api/games":
            gid = secrets.token_hex(6)
            tok = secrets.token_hex(16)
            with lock:
                games[gid] = {"tok": tok, "ply": 0, "version": 0}
            return self.answer(201, {"id": gid, "version": 0, "variant": req["variant"], "status": "active",
                                     "ply": 0, "fen": "start", "legalMoves": START, "moves": []},
                               ["koma_%s=%s; Path=/api/games/%s; HttpOnly; SameSite=Lax" % (gid, tok, gid),
                                "koma_%s=%s; Path=/ws/games/%s; HttpOnly; SameSite=Lax" % (gid, tok, gid)],
                               chunked=True)
        parts = self.path.split("/")
        if len(parts) == 5 and parts[4] == "moves":
            gid = parts[3]
            g = games.get(gid)
            if g is None:
                return self.answer(404, {"error": "id: no such game"})
            if ("koma_%s=%s" % (gid, g["tok"])) not in self.headers.get("Cookie", ""):
                return self.answer(403, {"error": "seat: no cookie"})
            with lock:
                if g["ply"] >= 6:
                    return self.answer(409, {"error": "the game is over"})
                if req.get("ply") != g["ply"]:
                    return self.answer(409, {"error": "stale ply"})
                g["ply"] += 1
                g["version"] += 1
                over = g["ply"] >= 6
                events = [{"type": "move", "version": g["version"], "ply": g["ply"], "move": req["move"],
                           "fen": "x", "legalMoves": [] if over else START, "check": False}]
                if over:
                    g["version"] += 1
                    events.append({"type": "status", "version": g["version"], "status": "finished",
                                   "result": {"winner": None, "termination": "agreement", "text": "1/2-1/2"}})
                return self.answer(200, {"version": g["version"], "events": events})
        return self.answer(404, {"error": "path"})


server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
threading.Timer(600, server.shutdown).start()
server.serve_forever()
