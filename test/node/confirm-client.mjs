// confirm-client.mjs: the official MCP TypeScript SDK client answering the server's
// confirmation requests (MCP elicitation) as a person would.
//
//   node confirm-client.mjs /path/to/mycli ANSWER TOOL ARGS-JSON [MCP-START-ARGS...]
//
// ANSWER is accept, decline or cancel (the client offers elicitation and its handler gives
// that answer), or none (the client does not offer elicitation). The script launches
// `mycli mcp start MCP-START-ARGS...`, lists the pods, calls TOOL with ARGS-JSON, lists the
// pods again and prints one JSON line on stdout: the elicitation messages it was shown, the
// call's result (isError and text) and the pods before and after. It exits 0 when it could
// run all of that; on any other failure it prints the failure on stderr and exits 1.
// test/e2e's TestConfirmTypeScriptClient runs it.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [bin, answer, tool, argsJSON, ...startArgs] = process.argv.slice(2);
if (!bin || !['accept', 'decline', 'cancel', 'none'].includes(answer) || !tool || !argsJSON) {
  console.error('usage: node confirm-client.mjs /path/to/mycli accept|decline|cancel|none TOOL ARGS-JSON [MCP-START-ARGS...]');
  process.exit(2);
}

// pods lists the pod names through the server (through the run tool in search mode): the
// side effect a confirmed call has.
async function pods(client, search) {
  const args = { flags: { output: 'name' } };
  const res = search
    ? await client.callTool({ name: 'mycli_run_command', arguments: { command: 'mycli_get_pods', ...args } })
    : await client.callTool({ name: 'mycli_get_pods', arguments: args });
  if (res.isError) throw new Error(`mycli_get_pods: ${res.content?.[0]?.text}`);
  return res.structuredContent.stdout.split('\n').filter((l) => l !== '');
}

async function main() {
  const transport = new StdioClientTransport({
    command: bin,
    args: ['mcp', 'start', ...startArgs],
    env: { ...process.env },
    stderr: 'inherit',
  });
  const capabilities = answer === 'none' ? {} : { elicitation: { form: {} } };
  const client = new Client({ name: 'cobramcp-e2e-confirm', version: '0' }, { capabilities });
  const asked = [];
  if (answer !== 'none') {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push({ message: req.params.message, mode: req.params.mode ?? 'form' });
      return answer === 'accept' ? { action: 'accept', content: {} } : { action: answer };
    });
  }
  await client.connect(transport);
  const { tools } = await client.listTools();
  const search = tools.some((t) => t.name === 'mycli_run_command');
  const before = await pods(client, search);
  const res = await client.callTool({ name: tool, arguments: JSON.parse(argsJSON) });
  const after = await pods(client, search);
  await client.close();
  const text = (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  console.log(JSON.stringify({ asked, isError: !!res.isError, text, before, after }));
}

main().catch((err) => {
  console.error('confirm-client:', err?.stack ?? err);
  process.exit(1);
});
