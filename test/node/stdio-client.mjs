// stdio-client.mjs: the official MCP TypeScript SDK client against `mycli mcp start`.
//
//   node stdio-client.mjs /path/to/mycli
//
// It launches the server with StdioClientTransport, lists the tools, calls several of them
// (the SDK's callTool validates each structuredContent against the tool's outputSchema and
// throws when it does not match), cancels a running call with an AbortSignal and checks that
// the call's process group is gone, then closes the client and checks that the server exited
// 0. It prints one JSON summary line on stdout and exits 0; on any failure it prints the
// failure on stderr and exits 1. test/e2e's TestTypeScriptClient runs it.

import { readdirSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

const bin = process.argv[2];
if (!bin) {
  console.error('usage: node stdio-client.mjs /path/to/mycli');
  process.exit(2);
}

function check(cond, msg) {
  if (!cond) throw new Error(msg);
}

// proc reads /proc/PID/stat: {ppid, pgid, state}, or null when the process is gone.
function proc(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: f[0], ppid: Number(f[1]), pgid: Number(f[2]) };
}

// groupLive lists the live (not zombie) members of process group pgid.
function groupLive(pgid) {
  const out = [];
  for (const name of readdirSync('/proc').filter((n) => /^[0-9]+$/.test(n))) {
    const p = proc(name);
    if (p && p.pgid === pgid && p.state !== 'Z' && p.state !== 'X') out.push(Number(name));
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// structured returns the structured content of a result after checking that the text
// content agrees with it.
function structured(name, res) {
  const sc = res.structuredContent;
  check(sc && typeof sc === 'object', `${name}: no structuredContent`);
  check(
    Object.keys(sc).sort().join(',') === 'exitCode,stderr,stdout',
    `${name}: structuredContent keys ${Object.keys(sc)}`,
  );
  check(res.content?.length === 1 && res.content[0].type === 'text', `${name}: want one text block`);
  check(res.content[0].text.startsWith(sc.stdout), `${name}: text does not start with stdout`);
  check(res.content[0].text.includes(sc.stderr), `${name}: text does not contain stderr`);
  return sc;
}

async function main() {
  const transport = new StdioClientTransport({
    command: bin,
    args: ['mcp', 'start'],
    env: { ...process.env },
    stderr: 'inherit',
  });
  // The client tells the transport the negotiated version, when the transport listens.
  let negotiated = null;
  transport.setProtocolVersion = (v) => {
    negotiated = v;
  };
  const client = new Client({ name: 'cobramcp-e2e-ts', version: '0' });
  await client.connect(transport);
  const serverPid = transport.pid;
  check(serverPid > 0, 'no server pid');
  let exitCode = null;
  transport._process.once('exit', (code, signal) => {
    exitCode = signal ? `signal ${signal}` : code;
  });

  check(negotiated === LATEST_PROTOCOL_VERSION, `negotiated ${negotiated}, want ${LATEST_PROTOCOL_VERSION}`);
  const info = client.getServerVersion();
  check(info?.name === 'mycli', `server name ${info?.name}`);

  // tools/list: every tool has an output schema, and the client holds a validator for it.
  const { tools } = await client.listTools();
  check(tools.length >= 20, `only ${tools.length} tools`);
  for (const t of tools) {
    check(t.outputSchema, `${t.name}: no outputSchema`);
    const v = client.getToolOutputValidator(t.name);
    check(typeof v === 'function', `${t.name}: the client holds no output validator`);
    // The validator does reject a wrong structuredContent: a bad result would surface.
    check(!v({ stdout: 1, stderr: '', exitCode: 0 }).valid, `${t.name}: validator accepts stdout: 1`);
    check(v({ stdout: '', stderr: '', exitCode: 0 }).valid, `${t.name}: validator rejects a good result`);
  }

  // Calls. callTool validates structuredContent against outputSchema and throws on mismatch.
  const calls = [];
  async function call(name, args, want) {
    const res = await client.callTool({ name, arguments: args });
    const sc = structured(name, res);
    want(sc, res);
    calls.push(name);
    return sc;
  }
  await call('mycli_version', {}, (sc, res) => {
    check(sc.stdout === 'mycli version 1.4.2\n', `version: ${JSON.stringify(sc)}`);
    check(sc.exitCode === 0 && !res.isError, 'version failed');
  });
  await call('mycli_get_pods', { flags: { output: 'json', namespace: 'kube-system' } }, (sc) => {
    const names = JSON.parse(sc.stdout).items.map((p) => p.name);
    check(names.includes('kube-proxy-h2x9z') && !names.includes('db-0'), `get pods: ${names}`);
  });
  await call('mycli_echo', { flags: { str: '-n', int: 7 }, args: ['--state=/tmp/x', '-n', 'x y'] }, (sc) => {
    const e = JSON.parse(sc.stdout);
    check(
      JSON.stringify(e.args) === JSON.stringify(['--state=/tmp/x', '-n', 'x y']) && e.flags.str === '-n' && e.flags.int === 7,
      `echo: ${sc.stdout}`,
    );
  });
  await call('mycli_fail', { flags: { code: 4, message: 'boom' } }, (sc, res) => {
    check(res.isError === true && sc.exitCode === 4 && sc.stderr.includes('boom'), `fail: ${JSON.stringify(sc)}`);
  });
  await call('mycli_flood', { flags: { bytes: 3000000 } }, (sc) => {
    check(/\[\.\.\. cobramcp: 1951424 bytes of stdout left out \.\.\.\]/.test(sc.stdout), 'flood: no exact marker');
  });
  await call('mycli_scale_deployment', { args: ['web'], flags: { replicas: 5 } }, (sc) => {
    check(sc.stdout === 'deployment/web scaled to 5\n', `scale: ${sc.stdout}`);
  });
  // Bad input: a result with isError and a message, not an exception.
  {
    const res = await client.callTool({ name: 'mycli_scale_deployment', arguments: { args: ['web'], flags: { replicas: 'x' } } });
    check(res.isError === true && /replicas/.test(res.content[0].text), `bad input: ${JSON.stringify(res)}`);
    calls.push('mycli_scale_deployment (bad input)');
  }

  // Cancel: an AbortSignal on callTool sends notifications/cancelled; the call's process
  // group (sleep and the grandchild it spawned) must be gone soon after.
  const ac = new AbortController();
  let grandchild = 0;
  let g = null;
  let leader = null;
  const pending = client.callTool(
    { name: 'mycli_sleep', arguments: { flags: { for: '60s', spawn: true } } },
    undefined,
    {
      signal: ac.signal,
      onprogress: (p) => {
        const n = Number(p.message);
        if (n > 0 && !grandchild) {
          grandchild = n;
          g = proc(grandchild);
          leader = g && proc(g.pgid);
          ac.abort('test cancels');
        }
      },
    },
  );
  let aborted = false;
  try {
    await pending;
  } catch (e) {
    aborted = true;
  }
  check(aborted, 'the canceled call resolved');
  check(grandchild > 0, 'no pid in progress notifications');
  check(g, `grandchild ${grandchild} not found`);
  check(leader && leader.ppid === serverPid, `group leader ${g.pgid} is not a child of the server ${serverPid}`);
  let live = groupLive(g.pgid);
  for (let i = 0; live.length > 0 && i < 250; i++) {
    await sleep(40);
    live = groupLive(g.pgid);
  }
  check(live.length === 0, `process group ${g.pgid} alive 10s after the cancel: ${live}`);
  calls.push('mycli_sleep (canceled)');

  await call('mycli_version', {}, (sc) => check(sc.exitCode === 0, 'version after cancel'));

  await client.close();
  for (let i = 0; exitCode === null && i < 100; i++) await sleep(50);
  check(exitCode === 0, `server exit ${exitCode} after stdin closed, want 0`);

  console.log(JSON.stringify({ protocolVersion: negotiated, server: info, tools: tools.length, calls, cancelledGroup: g.pgid }));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error('stdio-client:', err?.stack ?? err);
    process.exit(1);
  },
);
