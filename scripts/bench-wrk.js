// wrk (https://github.com/wg/wrk, Debian package `wrk`) for scripts/bench.js: finding or
// installing it, writing a scenario's Lua script, running it with one thread and reading the
// result that the script's done() prints as one JSON line (wrk's human summary is not parsed).
'use strict';
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const MARK = 'BENCH-WRK-RESULT ';
/** A request without an answer after this long counts as a timeout. */
const TIMEOUT = '30s';

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The path of wrk; when it is missing, installs Debian's package (apt-get, as root or with sudo -n). */
function ensureWrk(note) {
  const found = onPath('wrk');
  if (found) return found;
  const help = 'Install wrk (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk; else build https://github.com/wg/wrk) and run the bench again.';
  if (!onPath('apt-get')) throw new Error(`wrk is not on PATH and there is no apt-get to install it with. ${help}`);
  const asRoot = process.getuid?.() === 0;
  if (!asRoot && !onPath('sudo'))
    throw new Error(`wrk is not on PATH; installing it needs root, and the bench runs as uid ${process.getuid?.()} without sudo. ${help}`);
  const prefix = asRoot ? [] : ['sudo', '-n'];
  const run = (...args) => {
    const command = [...prefix, 'apt-get', ...args];
    note(`wrk is not on PATH; running: ${command.join(' ')}`);
    const res = spawnSync(command[0], command.slice(1), {
      stdio: ['ignore', process.stderr, process.stderr],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return res.status === 0;
  };
  const install = () => run('install', '-y', '--no-install-recommends', 'wrk');
  if (!install()) {
    note('apt-get install failed; updating the package lists and trying once more');
    if (!run('update') || !install()) throw new Error(`apt-get could not install wrk (its output is above). ${help}`);
  }
  const installed = onPath('wrk');
  if (!installed) throw new Error(`apt-get installed the package wrk, but there is still no wrk on PATH (${process.env.PATH}). ${help}`);
  note(`installed ${installed}`);
  return installed;
}

/** { name, version, api, path } from `wrk -v` (which prints its version, then the usage, and exits 1). */
function wrkVersion(bin) {
  const res = spawnSync(bin, ['-v'], { encoding: 'utf8' });
  const m = /^wrk (\S+)(?: \[(\w+)\])?/m.exec(`${res.stdout}\n${res.stderr}`);
  if (!m) throw new Error(`${bin} -v did not print a wrk version:\n${res.stdout}${res.stderr}${res.error ?? ''}`);
  return { name: 'wrk', version: m[1], api: m[2] ?? null, path: bin };
}

// ---------------------------------------------------------------- Lua

/** A Lua string literal for any string (its UTF-8 bytes; anything but printable ASCII as \ddd). */
function luaString(text) {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    out += printable ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/**
 * Lua for a scenario whose requests walk through `paths` in order (from wherever the previous
 * runs of the scenario stopped), as one string split at load time: no table constructor limits.
 */
function luaCyclePaths(paths) {
  if (paths.length === 0 || paths.some((p) => p.includes('\n') || !p.startsWith('/'))) throw new Error('paths must be absolute and one line each');
  return `
local paths = {}
for p in string.gmatch(${luaString(paths.join('\n'))}, "[^\\n]+") do paths[#paths + 1] = p end

function request()
  local i = bench_offset + bench_generated
  bench_generated = bench_generated + 1
  return wrk.format(nil, paths[i % #paths + 1])
end
`;
}

/**
 * Lua for a scenario whose request body is `template`: every `@K@` becomes the request's number k
 * (counted across all runs of the scenario from 1), then the rest is a string.format pattern
 * with one %s per column, the k-th request taking element k mod length of each column.
 */
function luaNumberedBody(template, columns) {
  const lists = columns.map((column, i) => `local column${i + 1} = { ${column.map((v) => luaString(String(v))).join(', ')} }`);
  const args = columns.map((_, i) => `, column${i + 1}[k % #column${i + 1} + 1]`).join('');
  return `
${lists.join('\n')}
local template = ${luaString(template)}

function request()
  bench_generated = bench_generated + 1
  local k = bench_offset + bench_generated
  local numbered = template:gsub('@K@', tostring(k))
  return wrk.format(nil, nil, nil, string.format(numbered${args}))
end
`;
}

/**
 * Writes the wrk script of a scenario: method, headers and static body, the scenario's own
 * request() if it varies its requests, and a done() that prints the result as one JSON line.
 */
function writeScript(file, { name, method, headers = {}, body, lua = '' }) {
  const lines = [
    `-- Generated by scripts/bench.js for the scenario ${name}: wrk -t1 -s ${path.basename(file)} URL -- OFFSET`,
    '-- OFFSET: requests that earlier runs of the scenario generated; the sequence continues there.',
    'bench_offset = 0',
    'bench_generated = 0',
    `wrk.method = ${luaString(method)}`,
    ...Object.entries(headers).map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`),
    ...(body === undefined ? [] : [`wrk.body = ${luaString(body)}`]),
    lua,
    'function init(args)',
    '  bench_offset = tonumber(args[1]) or 0',
    '  -- wrk calls request() once more, right after init(), only to check the request it builds,',
    '  -- and never sends that one: counting from -1 makes the first request sent number 0.',
    '  if request then bench_generated = -1 end',
    'end',
    '',
    'local threads = {}',
    'function setup(thread)',
    '  threads[#threads + 1] = thread',
    'end',
    '',
    'local function n(x)',
    '  if x == nil or x ~= x then return 0 end',
    '  return x',
    'end',
    '',
    'function done(summary, latency, requests)',
    '  local generated = 0',
    '  for _, t in ipairs(threads) do generated = generated + n(t:get("bench_generated")) end',
    '  local e = summary.errors',
    '  io.write(string.format(',
    `    '${MARK}{"requests":%.0f,"durationUs":%.0f,"bytes":%.0f,"generated":%.0f,' ..`,
    `    '"errors":{"connect":%.0f,"read":%.0f,"write":%.0f,"timeout":%.0f,"status":%.0f},' ..`,
    `    '"latencyUs":{"p50":%.0f,"p90":%.0f,"p99":%.0f,"mean":%.1f,"max":%.0f}}\\n',`,
    '    n(summary.requests), n(summary.duration), n(summary.bytes), generated,',
    '    n(e.connect), n(e.read), n(e.write), n(e.timeout), n(e.status),',
    '    n(latency:percentile(50)), n(latency:percentile(90)), n(latency:percentile(99)), n(latency.mean), n(latency.max)))',
    '  io.flush()',
    'end',
    '',
  ];
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

// ---------------------------------------------------------------- running

let clockTicks;
function ticksPerSecond() {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc; undefined elsewhere or once
 * it is gone. With `mainThread`, only its main thread's (the one JavaScript runs on, which limits
 * a Node server's rate; the rest is the collector's, libuv's and worker threads').
 */
function cpuSeconds(pid, mainThread = false) {
  try {
    const stat = fs.readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return undefined;
  }
}

/** Busy and total CPU seconds of the whole machine so far (all cores, steal counted as busy), from /proc/stat. */
function machineCpu() {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    const total = user + nice + system + idle + iowait + irq + softirq + steal;
    return { busy: (total - idle - iowait) / ticksPerSecond(), total: total / ticksPerSecond() };
  } catch {
    return undefined;
  }
}

/**
 * One wrk run: `wrk -t1 -cC -dSs --timeout 30s -s script URL -- offset`. Resolves with the
 * JSON line of done() and the share of a core that wrk and the target process used meanwhile
 * (sampled from /proc every 200 ms: wrk near 100% means the load generator, not the target, was
 * the limit), and the cores the rest of the machine kept busy meanwhile (other load). `track` registers the child so that the bench stops it on Ctrl-C.
 */
function runWrk({ bin, url, script, seconds, connections, offset = 0, targetPid, track = (c) => c }) {
  return new Promise((resolve, reject) => {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', TIMEOUT, '-s', script, url, '--', String(offset)];
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    const child = track(spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    const targetStart = targetPid ? cpuSeconds(targetPid) : undefined;
    const mainStart = targetPid ? cpuSeconds(targetPid, true) : undefined;
    const machineStart = machineCpu();
    let generator = { cpu: 0, at: 0 };
    const sample = () => {
      const cpu = cpuSeconds(child.pid);
      if (cpu !== undefined) generator = { cpu, at: elapsed() };
    };
    const timer = setInterval(sample, 200);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      sample();
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (e) => {
      clearInterval(timer);
      reject(new Error(`could not run ${bin}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearInterval(timer);
      const targetEnd = targetPid ? cpuSeconds(targetPid) : undefined;
      const mainEnd = targetPid ? cpuSeconds(targetPid, true) : undefined;
      const machineEnd = machineCpu();
      const wall = elapsed();
      const line = out.split('\n').find((l) => l.startsWith(MARK));
      const command = `wrk ${args.join(' ')}`;
      if (code !== 0 || !line) {
        return reject(
          new Error(`${command} ${signal ? `was stopped by ${signal}` : `exited with ${code}`}${line ? '' : ' without a result line'}:\n${out}${err}`),
        );
      }
      let result;
      try {
        result = JSON.parse(line.slice(MARK.length));
      } catch (e) {
        return reject(new Error(`${command}: unreadable result line ${JSON.stringify(line)}: ${e.message}`));
      }
      // A broken script is only reported on stderr (wrk then runs without it): refuse that.
      if (err.trim()) return reject(new Error(`${command} complained:\n${err}`));
      const cpu = {
        generator: generator.at > 0 ? generator.cpu / generator.at : null,
        target: targetStart !== undefined && targetEnd !== undefined ? (targetEnd - targetStart) / wall : null,
        targetMainThread: mainStart !== undefined && mainEnd !== undefined ? (mainEnd - mainStart) / wall : null,
        // Cores busy on the whole machine meanwhile, and what of that neither wrk nor the target used.
        machine: machineStart && machineEnd ? (machineEnd.busy - machineStart.busy) / wall : null,
        others: null,
      };
      if (cpu.machine !== null && cpu.generator !== null && cpu.target !== null) cpu.others = Math.max(0, cpu.machine - cpu.generator - cpu.target);
      resolve({ ...result, cpu });
    });
  });
}

module.exports = { ensureWrk, wrkVersion, luaString, luaCyclePaths, luaNumberedBody, writeScript, runWrk };
