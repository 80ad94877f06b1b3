// Preloaded into the Portkey gateway by dev.zerolayer.bench.proxy.PortkeyPeer (node --import).
// 1. Loopback only: the gateway's start-server listens on every interface and has no host option, so every
//    net.Server.listen(port, ...) call is given host 127.0.0.1 (the runner checks /proc/net/tcp afterwards).
// 2. Streaming fix: with @hono/node-server 1.12+ (what npm resolves for @portkey-ai/gateway 1.15.2), every streaming
//    request fails with "TypeError: immutable": the gateway wraps the upstream fetch() Response (whose Headers are
//    immutable) and then appends its x-portkey-* headers to them. Upstream responses are copied into a fresh
//    native Response (same status, headers copied, body stream passed through, not read) so those appends work.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (args.length > 0 && args[0] !== null && typeof args[0] === 'object') {
    args[0] = { ...args[0], host: '127.0.0.1' };
  } else if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    if (args.length > 1 && (args[1] === undefined || typeof args[1] === 'string')) {
      args[1] = '127.0.0.1';
    } else {
      args.splice(1, 0, '127.0.0.1');
    }
  }
  return listen.apply(this, args);
};

const NativeResponse = globalThis.Response;
const nativeFetch = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const response = await nativeFetch(...args);
  return new NativeResponse(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(response.headers),
  });
};
