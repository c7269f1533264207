"""A webhook receiver for the end-to-end tests: checks each POST's `Signature` header
(t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret) and records it.

    python3 webhook_receiver.py STATE_DIR SECRET

Prints its port (127.0.0.1, free) on the first line. While STATE_DIR/down exists it answers
503 (a receiver that is down); every request is appended to STATE_DIR/attempts.log and every
accepted one to STATE_DIR/received.log as JSON: {"valid": bool, "key": ..., "body": {...}}.
Stops when its stdin closes."""
import hashlib, hmac, http.server, json, os, sys, threading

state, secret = sys.argv[1], sys.argv[2].encode()
# The hash of the HMAC: sha256 (Ledgerly's default) or sha3_256 ("signature": "hmac-sha3-256").
digest = getattr(hashlib, sys.argv[3] if len(sys.argv) > 3 else "sha256")
lock = threading.Lock()

class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock, open(os.path.join(state, "attempts.log"), "a") as log:
            log.write(self.headers.get("X-Ledgerly-Alert-Key", "") + "\n")
        if os.path.exists(os.path.join(state, "down")):
            self.send_response(503); self.send_header("Content-Length", "0"); self.end_headers(); return
        parts = dict(item.split("=", 1) for item in self.headers.get("Signature", "").split(",") if "=" in item)
        expected = hmac.new(secret, parts.get("t", "").encode() + b"." + body, digest).hexdigest()
        valid = hmac.compare_digest(expected, parts.get("v1", ""))
        with lock, open(os.path.join(state, "received.log"), "a") as log:
            log.write(json.dumps({"valid": valid, "key": self.headers.get("X-Ledgerly-Alert-Key"),
                                  "event": self.headers.get("X-Ledgerly-Event"), "changeKey": self.headers.get("X-Ledgerly-Change-Key"),
                                  "body": json.loads(body)}) + "\n")
        self.send_response(200 if valid else 401); self.send_header("Content-Length", "0"); self.end_headers()

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
