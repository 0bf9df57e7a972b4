// Runs a file of SQL through DuckDB (@duckdb/node-api, whose engine ships
// inside the npm package) over a snap store, and prints as JSON the rows
// of every statement named by a "-- name: NAME" line, with the time each
// run of it took in milliseconds: wall clock (ms) and the CPU time of the
// process, all DuckDB's threads together (cpu_ms).
//
// Usage: node run.cjs NODE_API_DIR QUERIES_SQL STORE [RUNS]
//
// {store} in the SQL becomes STORE. Statements end with ';' at the end of
// a line. Every extension used is built in, so DuckDB is told never to
// install or load one: it would reach for the network.
'use strict';

const fs = require('fs');

async function main() {
  const [api, file, store, runs = '1'] = process.argv.slice(2);
  if (!store) {
    throw new Error('usage: node run.cjs NODE_API_DIR QUERIES_SQL STORE [RUNS]');
  }
  const { DuckDBInstance } = require(api);
  const db = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const con = await db.connect();
  const sql = fs.readFileSync(file, 'utf8').replaceAll('{store}', store.replaceAll("'", "''"));
  const out = {};
  for (const stmt of sql.split(/;[ \t]*\n/)) {
    if (!stmt.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('--'))) {
      continue; // only comments
    }
    const m = /^--\s*name:\s*(\S+)/m.exec(stmt);
    const n = m ? Number(runs) : 1;
    const ms = [];
    const cpuMS = [];
    let rows;
    for (let i = 0; i < n; i++) {
      const start = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      const reader = await con.runAndReadAll(stmt);
      const used = process.cpuUsage(cpu);
      ms.push(Number(process.hrtime.bigint() - start) / 1e6);
      cpuMS.push((used.user + used.system) / 1e3);
      rows = reader.getRowObjectsJson();
    }
    if (m) {
      out[m[1]] = { rows, ms, cpu_ms: cpuMS };
    }
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack || err) + '\n');
  process.exit(1);
});
