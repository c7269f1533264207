"""A tx.import load like `ledgerly-bench ledger`'s, driven from Python (pyzmq), for profiling the store.

Usage: python3 Tests/python/tools/tx_import_load.py BIN_DIR HOME N [BATCH] [SENDERS]
with `ledgerly-store --home HOME` already running on an empty home. It sets up EUR, 8 wallets in
EUR/USD/JPY, 23 categories and five years of daily rates, then sends N transactions (5 % transfers,
5 % splits, 5 % foreign, 10 % tagged) in pre-encoded tx.import frames from SENDERS threads, so the
client costs almost nothing, and prints the load time. docs/performance.md, "Import and load".

For profiling (docs/performance.md, "Fifteenth round"): SPREAD=DAYS dates the transactions over
the first DAYS days instead of five years, and HOOK='a shell command' runs just before the first
batch is sent (`callgrind_control -i on` for a store started under
`valgrind --tool=callgrind --instr-atstart=no`).
"""
import os, sys, json, uuid, datetime, random, subprocess, threading, time, zmq
BIN, HOME, N = sys.argv[1], sys.argv[2], int(sys.argv[3])
BATCH = int(sys.argv[4]) if len(sys.argv) > 4 else 5000
SENDERS = int(sys.argv[5]) if len(sys.argv) > 5 else 2
def cli(*a):
    r = subprocess.run([BIN + "/ledgerly", *a, "--home", HOME], capture_output=True, text=True)
    if r.returncode: print(a, r.stderr); sys.exit(1)
    return r.stdout
ctx = zmq.Context()
EP = f"ipc://{HOME}/run/store.cmd"
def ts(): return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
def call(sock, t, body):
    sock.send(json.dumps({"v": 1, "id": str(uuid.uuid4()), "type": t, "ts": ts(), "key": str(uuid.uuid4()), "body": body}).encode())
    r = json.loads(sock.recv())
    if not r["type"].endswith(".ok"): print(r); sys.exit(1)
    return r["body"]
s = ctx.socket(zmq.REQ); s.connect(EP)
call(s, "setup.complete", {"baseCurrency": "EUR", "exchangeMode": "official", "cloudSync": False})
wallets = [("Checking","EUR"),("Savings","EUR"),("Cash","EUR"),("Card","EUR"),("Dollars","USD"),("US Savings","USD"),("Yen","JPY"),("Yen Cash","JPY")]
wids = [call(s, "wallet.create", {"name": n, "currency": c, "startingBalance": "1000"})["id"] for n, c in wallets]
exp, inc = [], []
for p in range(5):
    pid = call(s, "category.create", {"name": f"E{p}", "kind": "expense"})["id"]
    for c in range(4): exp.append(call(s, "category.create", {"name": f"E{p}c{c}", "kind": "expense", "parentId": pid})["id"])
pid = call(s, "category.create", {"name": "Work", "kind": "income"})["id"]
for c in range(3): inc.append(call(s, "category.create", {"name": f"I{c}", "kind": "income", "parentId": pid})["id"])
start = datetime.date(2021, 11, 1); days = 5 * 365
SPREAD = int(os.environ.get("SPREAD", days))
rates = []
for d in range(days):
    day = (start + datetime.timedelta(days=d)).isoformat()
    rates.append({"base": "EUR", "quote": "USD", "rate": f"{1.05 + (d % 97) / 1000:.4f}", "asOf": day + "T15:00:00.000Z"})
    rates.append({"base": "EUR", "quote": "JPY", "rate": f"{150 + (d % 89) / 10:.2f}", "asOf": day + "T15:00:00.000Z"})
for i in range(0, len(rates), 2000): call(s, "rates.batch", {"profileId": 1, "source": "ecb", "rates": rates[i:i+2000]})
rnd = random.Random(7)
def amount(cur, lo, hi):
    c = rnd.randint(lo, hi)
    return str(c * 150 // 100) if cur == "JPY" else f"{c // 100}.{c % 100:02d}"
items = []
for i in range(N):
    day = (start + datetime.timedelta(days=i * SPREAD // N)).isoformat()
    roll = rnd.randrange(100); w = rnd.randrange(8); cur = wallets[w][1]
    tags = [rnd.choice(["weekly", "work", "travel"])] if rnd.randrange(10) == 0 else None
    if roll < 5:
        o = rnd.randrange(7); o += o >= w
        t = {"fromWalletId": wids[w], "toWalletId": wids[o], "amount": amount(cur, 5000, 200000), "date": day, "notes": "Transfer"}
        if wallets[o][1] != cur: t["toAmount"] = amount(wallets[o][1], 5000, 200000)
        if tags: t["tags"] = tags
        items.append({"transfer": t})
    elif roll < 15:
        t = {"kind": "income", "walletId": wids[w], "amount": amount(cur, 50000, 500000), "categoryId": rnd.choice(inc), "notes": "ACME payroll", "date": day}
        if tags: t["tags"] = tags
        items.append({"transaction": t})
    else:
        foreign = rnd.choice([c for c in ("EUR", "USD", "JPY") if c != cur]) if roll < 20 else None
        c2 = foreign or cur
        t = {"kind": "income" if roll < 17 else "expense", "walletId": wids[w], "amount": amount(c2, 100, 20000), "notes": f"Payee {rnd.randrange(300)}", "date": day}
        if foreign: t["currency"] = foreign
        if tags: t["tags"] = tags
        if 20 <= roll < 25 and c2 != "JPY":
            t["kind"] = "expense"; minor = int(t["amount"].replace(".", ""))
            a = minor // 2; t["splits"] = [{"amount": f"{a // 100}.{a % 100:02d}", "categoryId": rnd.choice(exp)}, {"amount": f"{(minor - a) // 100}.{(minor - a) % 100:02d}", "categoryId": rnd.choice(exp)}]
        else:
            t["categoryId"] = rnd.choice(exp)
        items.append({"transaction": t})
frames = []
for i in range(0, N, BATCH):
    frames.append(json.dumps({"v": 1, "id": str(uuid.uuid4()), "type": "tx.import", "ts": ts(), "key": str(uuid.uuid4()), "body": {"importId": "load", "items": items[i:i+BATCH]}}).encode())
print(f"{len(frames)} frames, {sum(map(len, frames)) / 1e6:.1f} MB", flush=True)
lock = threading.Lock(); queue = list(range(len(frames))); done = [0]
def sender():
    k = ctx.socket(zmq.REQ); k.connect(EP)
    while True:
        with lock:
            if not queue: return
            n = queue.pop(0)
        while True:
            k.send(frames[n]); r = json.loads(k.recv())
            if r["type"] == "tx.import.ok": break
            if r.get("body", {}).get("code") == "unavailable": time.sleep(0.05); continue
            print(r); sys.exit(1)
        with lock: done[0] += r["body"]["imported"]
if os.environ.get("HOOK"): subprocess.run(os.environ["HOOK"], shell=True, check=True)
t0 = time.time()
ths = [threading.Thread(target=sender) for _ in range(SENDERS)]
for t in ths: t.start()
for t in ths: t.join()
dt = time.time() - t0
print(f"load: {done[0]} items in {dt:.1f} s = {done[0] / dt:.0f}/s", flush=True)
