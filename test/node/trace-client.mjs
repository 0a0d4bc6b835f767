// trace-client.mjs: the official MCP TypeScript SDK client sends a W3C trace
// context in a tool call's params._meta, as the OpenTelemetry semantic
// conventions for MCP propagate it, against `mcp stream` with telemetry.
//
//   node trace-client.mjs URL TRACEPARENT TRACESTATE
//
// It calls mycli_env-get twice, for TRACEPARENT and for TRACESTATE, with the
// trace context in _meta, closes the session, and prints one JSON line on
// stdout: {"traceparent": ..., "tracestate": ...}, what the call's process
// saw. On any failure it prints the failure on stderr and exits 1.
// test/e2e's TestTelemetryTypeScriptClient runs it.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, traceparent, tracestate] = process.argv.slice(2);
if (!url || !traceparent) {
  console.error('usage: node trace-client.mjs URL TRACEPARENT [TRACESTATE]');
  process.exit(2);
}

async function main() {
  const client = new Client({ name: 'cobramcp-e2e-ts-trace', version: '0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const seen = {};
  for (const name of ['TRACEPARENT', 'TRACESTATE']) {
    const res = await client.callTool({
      name: 'mycli_env-get',
      arguments: { args: [name] },
      _meta: { traceparent, tracestate },
    });
    if (res.isError) throw new Error(`mycli_env-get ${name}: ${JSON.stringify(res)}`);
    seen[name.toLowerCase()] = res.structuredContent.stdout.trim();
  }
  await transport.terminateSession();
  await client.close();
  process.stdout.write(JSON.stringify(seen) + '\n');
}

main().catch((e) => {
  console.error(e?.stack ?? String(e));
  process.exit(1);
});
