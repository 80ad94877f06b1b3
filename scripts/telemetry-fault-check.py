#!/usr/bin/env python3
"""Injects simulator faults one after the other on one node of a running `./zerolayer up` and prints, for each, the
health records telemetry-service published for that node (state, diagnosis, first reason, seconds after injection),
under a small streaming load pinned to the node's tier (the passive diagnosis needs served streams).

usage: ZEROLAYER_API_KEY=... ZEROLAYER_ADMIN_TOKEN=... scripts/telemetry-fault-check.py <node> <fault,fault,...>
e.g.   scripts/telemetry-fault-check.py haiku-l4-0 sm_saturation,cuda_graph_warmup,crash,gateway_congestion,gpu_bandwidth
(pick the node that carries the tier's streams: with identical prompts the cache-aware router keeps them on one node)
"""
import json, os, threading, time, urllib.request, sys
ROUTER="http://127.0.0.1:8080"; SIM="http://127.0.0.1:18085"; TEL="http://127.0.0.1:18081"
KEY=os.environ.get("ZEROLAYER_API_KEY", "k"); ADM=os.environ.get("ZEROLAYER_ADMIN_TOKEN", "adm")
NODE=sys.argv[1] if len(sys.argv)>1 else "haiku-l4-0"
stop=False; stats={"ok":0,"err":0}
def req(url, data=None, headers={}, method=None):
    r=urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(r, timeout=30) as resp: return resp.status, resp.read()
def load():
    body=json.dumps({"model":"claude-3-5-haiku","max_tokens":24,"stream":True,"messages":[{"role":"user","content":"Say hello in a few words."}]}).encode()
    while not stop:
        try:
            s,b=req(ROUTER+"/v1/messages", body, {"x-api-key":KEY,"content-type":"application/json","anthropic-version":"2023-06-01","anthropic-routing-priority":NODE.split("-")[0]})
            stats["ok" if s==200 and b"message_stop" in b else "err"]+=1
        except Exception as e:
            stats["err"]+=1
        time.sleep(0.05)
threads=[threading.Thread(target=load,daemon=True) for _ in range(4)]
[t.start() for t in threads]
time.sleep(15)  # baseline for the passive diagnosis
for fault in sys.argv[2].split(","):
    req(SIM+f"/admin/nodes/{NODE}/faults", json.dumps({"type":fault,"durationMs":25000,"intensity":1.0}).encode(),
        {"authorization":"Bearer "+ADM,"content-type":"application/json"}, "POST")
    t0=time.time(); seen=[]
    while time.time()-t0<25:
        try:
            s,b=req(TEL+f"/v1/nodes/{NODE}"); h=json.loads(b)
            key=(h["state"],h.get("diagnosis"),tuple(h.get("reasons",[]))[:1])
            if not seen or seen[-1][1]!=key: seen.append((round(time.time()-t0,2),key))
        except Exception as e: pass
        time.sleep(0.1)
    req(SIM+f"/admin/nodes/{NODE}/faults", None, {"authorization":"Bearer "+ADM}, "DELETE")
    print(fault, "->", seen[:6], "client", dict(stats), flush=True)
    t1=time.time()
    while time.time()-t1<40:
        s,b=req(TEL+f"/v1/nodes/{NODE}"); h=json.loads(b)
        if h["state"]=="HEALTHY" and not h.get("diagnosis"): break
        time.sleep(0.5)
    print("  back to", h["state"], h.get("diagnosis"), "after", round(time.time()-t1,1), "s", flush=True)
stop=True
