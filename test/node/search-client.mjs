// search-client.mjs: the official MCP TypeScript SDK client against
// `mycli mcp start --tool-mode search`.
//
//   node search-client.mjs /path/to/mycli
//
// It lists the tools (the three of search mode), searches, describes and runs a command
// (the SDK's callTool validates run's structuredContent against its outputSchema), checks
// that bad input to run is refused, and prints one JSON summary line on stdout. On any
// failure it prints the failure on stderr and exits 1. test/e2e's TestTypeScriptSearchClient
// runs it.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: node search-client.mjs /path/to/mycli');
  process.exit(2);
}

function check(cond, msg) {
  if (!cond) throw new Error(msg);
}

async function main() {
  const transport = new StdioClientTransport({
    command: bin,
    args: ['mcp', 'start', '--tool-mode', 'search', '--mcp-log-level', 'warn'],
    env: process.env,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'cobramcp-e2e-ts-search', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  const bytes = JSON.stringify(tools).length;

  const found = await client.callTool({ name: 'mycli_search_commands', arguments: { query: 'list pods in a namespace' } });
  check(!found.isError, `search failed: ${JSON.stringify(found)}`);
  const results = JSON.parse(found.content[0].text).results;
  const described = await client.callTool({ name: 'mycli_describe_command', arguments: { command: results[0].command } });
  check(!described.isError, `describe failed: ${JSON.stringify(described)}`);
  const schema = JSON.parse(described.content[0].text).inputSchema;
  check(schema?.properties?.flags?.properties?.output, `describe: no --output in ${JSON.stringify(schema)}`);

  const ran = await client.callTool({ name: 'mycli_run_command', arguments: { command: results[0].command, flags: { output: 'name' } } });
  check(!ran.isError && ran.structuredContent.stdout.includes('pod/web-'), `run: ${JSON.stringify(ran)}`);
  const bad = await client.callTool({ name: 'mycli_run_command', arguments: { command: results[0].command, flags: { output: 3 } } });
  check(bad.isError && bad.content[0].text.includes('Nothing was run'), `run with bad input: ${JSON.stringify(bad)}`);

  await client.close();
  console.log(JSON.stringify({ tools: names, bytes, first: results[0].command, ranExit: ran.structuredContent.exitCode }));
}

main().catch((err) => {
  console.error('search-client:', err?.stack || err);
  process.exit(1);
});
