"""A stand-in for rate providers in the end-to-end tests: serves recorded responses from a folder
on 127.0.0.1 (a free port, printed on the first line of stdout), plus failures on demand:

    /<file>            the file, as a provider would send it
    /status/<code>     an empty answer with that HTTP status (429, 500, ...)
    /slow/<seconds>    waits, then answers 200 with an empty body
    /switch/<key>/<file>  HTTP 500 while <state>/<key>.down exists, else the file (a provider
                       that goes down and comes back)
    /by/<param>/<prefix>?…<param>=X…  the file <prefix>-<x>.json (x lower-cased): one recorded
                       answer per symbol, as Alpha Vantage and Finnhub answer one symbol a request
    /delay/<seconds>/<rest>  waits, then answers as /<rest> (a provider slow enough to kill the
                       rates service in the middle of a refresh)
    /state/<file>      the file from the state folder, written by the test (a document dated
                       today, or one whose values change between two refreshes)

A query string is ignored except by /by/, so a URL template's parameters reach a plain file.

Every request is appended to <state>/requests.log as "<unix time> <path>", so tests can see
when a provider was asked (backoff, pacing). Loopback only; stops when its stdin closes."""
import http.server, os, sys, threading, time, urllib.parse

root = sys.argv[1]
state = sys.argv[2]
log_lock = threading.Lock()

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with log_lock, open(os.path.join(state, "requests.log"), "a") as log:
            log.write(f"{time.time():.3f} {self.path}\n")
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        parts = url.path.strip("/").split("/")
        if parts[0] == "delay":
            time.sleep(float(parts[1]))
            parts = parts[2:]
        if parts[0] == "by":
            value = query.get(parts[1], [""])[0].lower()
            parts = [f"{parts[2]}-{value}.json"]
        if parts[0] == "switch":
            if os.path.exists(os.path.join(state, os.path.basename(parts[1]) + ".down")):
                self.send_response(500); self.end_headers(); return
            parts = parts[2:]
        if parts[0] == "status":
            self.send_response(int(parts[1])); self.end_headers(); return
        if parts[0] == "slow":
            time.sleep(float(parts[1])); self.send_response(200); self.end_headers(); return
        folder = root
        if parts[0] == "state":
            folder, parts = state, parts[1:]
        path = os.path.join(folder, os.path.basename("/".join(parts)))
        if not os.path.isfile(path):
            self.send_response(404); self.end_headers(); return
        body = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
