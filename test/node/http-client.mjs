// http-client.mjs drives `mcp stream` with the official TypeScript client
// (StreamableHTTPClientTransport), for test/e2e/http. Usage:
//
//   MCP_TOKEN=... node http-client.mjs URL
//
// It prints one JSON object per line on stdout, one per step:
//   {"step":"unauthorized","error":"...","code":401}  connecting with a wrong token failed
//   {"step":"list","tools":[names]}
//   {"step":"call","result":{...}}          mycli_echo's CallToolResult
//   {"step":"bad-input","result":{...}}     a call with an invalid flag value
//   {"step":"unknown-tool","error":"..."}
//   {"step":"cancel-started"}               a one-minute mycli_sleep is running;
//                                           the script then waits for a line on stdin
//   {"step":"cancel","error":"...","ms":N}  the call after AbortController.abort();
//                                           the script then waits for another line
//                                           on stdin before it closes the client
//   {"step":"done"}
// A step that throws unexpectedly prints {"step":..., "fatal":"..."} and exits 1.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createInterface } from 'node:readline';

const url = new URL(process.argv[2]);
const token = process.env.MCP_TOKEN ?? '';

function out(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

async function connect(tok) {
  const headers = tok ? { Authorization: `Bearer ${tok}` } : {};
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'httpe2e-ts', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

let step = 'unauthorized';
try {
  try {
    const c = await connect('wrong-token-0123456789');
    await c.close();
    out({ step, error: '' });
  } catch (e) {
    out({ step, error: String(e?.message ?? e), code: e?.code });
  }

  step = 'connect';
  const client = await connect(token);

  step = 'list';
  const { tools } = await client.listTools();
  out({ step, tools: tools.map((t) => t.name) });

  step = 'call';
  const result = await client.callTool({
    name: 'mycli_echo',
    arguments: { args: ['from', 'typescript'], flags: { str: 'ts', int: 42 } },
  });
  out({ step, result });

  step = 'bad-input';
  const bad = await client.callTool({ name: 'mycli_echo', arguments: { flags: { int: 'x' } } });
  out({ step, result: bad });

  step = 'unknown-tool';
  try {
    const r = await client.callTool({ name: 'mycli_nope', arguments: {} });
    out({ step, error: '', result: r });
  } catch (e) {
    out({ step, error: String(e?.message ?? e) });
  }

  step = 'cancel';
  const ac = new AbortController();
  const call = client.callTool(
    { name: 'mycli_sleep', arguments: { flags: { for: '60s', spawn: true } } },
    undefined,
    { signal: ac.signal, timeout: 120000 },
  );
  const settled = call.then(
    (r) => ({ error: '', result: r }),
    (e) => ({ error: String(e?.message ?? e) }),
  );
  out({ step: 'cancel-started' });
  const rl = createInterface({ input: process.stdin });
  const lines = rl[Symbol.asyncIterator]();
  await lines.next();
  const t0 = Date.now();
  ac.abort('cancelled by the test');
  const r = await settled;
  out({ step, ...r, ms: Date.now() - t0 });

  // Stay connected until told to close, so that the test can see whether
  // the cancellation alone ended the call on the server.
  await lines.next();
  rl.close();
  await client.close();
  out({ step: 'done' });
  process.exit(0);
} catch (e) {
  out({ step, fatal: String(e?.stack ?? e) });
  process.exit(1);
}
